import type { Db } from "@/lib/db/doors";
import { applySubmission } from "./apply-submission";
import type { FormRow } from "./form-row";
import type { SubmittedBody } from "@/lib/http/parse-body";
import { submissionFields } from "./submission-fields";
import { looksLikeToken, verificationDigest } from "./verification-token";

export type VerifySubmissionResult =
  | { outcome: "unknown" }
  | { outcome: "expired"; workspaceId: string }
  | {
      outcome: "verified";
      contactId: string;
      redirectUrl: string | null;
      workspaceId: string;
      /** the form's language (docs/decisions.md, "Recipient languages") */
      formLocale: string | null;
    };

interface PendingRow {
  form_id: string;
  workspace_id: string;
  payload: SubmittedBody;
  ip_address: string | null;
  expired: boolean;
}

/**
 * GET /api/forms/verify (spec 4.3, 3.5). The token is single-use: its row is deleted by the
 * statement that reads it, so two clicks cannot both apply it. An expired row (24 hours,
 * spec 8.1) is consumed too and applies nothing. A verified submission overwrites changed
 * details (the address's owner confirmed them), audited per 4.10, with the consent rules
 * of 4.2.3, a 'verified_email' submission row and the form's automations.
 */
export async function verifySubmission(db: Db, token: string | null): Promise<VerifySubmissionResult> {
  if (!looksLikeToken(token)) return { outcome: "unknown" };
  const [pending] = await db<PendingRow[]>`
    delete from public.pending_form_submissions
    where token = ${verificationDigest(token)}
    returning form_id, workspace_id, payload, host(ip_address) as ip_address, expires_at <= now() as expired`;
  if (!pending) return { outcome: "unknown" };
  if (pending.expired) return { outcome: "expired", workspaceId: pending.workspace_id };

  const [form] = await db<FormRow[]>`select * from public.forms where id = ${pending.form_id}`;
  const fields = submissionFields(pending.payload);
  // The payload was validated when it was staged; a row that no longer parses is unusable.
  if (!form || "error" in fields) return { outcome: "unknown" };
  const applied = await applySubmission(db, {
    form,
    fields: fields.data,
    payload: pending.payload,
    ip: pending.ip_address,
    submissionType: "verified_email",
  });
  return {
    outcome: "verified",
    contactId: applied.contactId,
    redirectUrl: form.success_redirect_url,
    workspaceId: form.workspace_id,
    formLocale: form.locale,
  };
}
