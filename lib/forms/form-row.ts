/** A forms row (spec 2.1) as postgres.js returns it. `api_key` is the SHA-256 hex digest. */
export interface FormRow {
  id: string;
  workspace_id: string;
  name: string;
  allowed_domains: string[];
  api_key: string | null;
  success_redirect_url: string | null;
  captcha_required: boolean;
  require_verification: boolean;
  /** the subscription topics a submission subscribes to; none: the workspace's default topics */
  topic_ids: string[];
  /** the form's language (docs/decisions.md, "Recipient languages"); null: chosen per submission */
  locale: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The form as the public endpoint needs it: the row plus its workspace's name (for emails). */
export interface PublicForm extends FormRow {
  workspace_name: string;
  /** the workspace's default language (workspaces.default_locale) */
  workspace_locale: string;
  /** whether any active form_submitted automation could fire for this form */
  has_automations: boolean;
}
