"use client";

import { useActionState, useId } from "react";
import type { FormState } from "@/lib/http/form-state";
import { Field, FormMessage, SelectField, SubmitButton } from "@/components/form-controls";

export interface FormSettingsValues {
  name: string;
  allowed_domains: string;
  require_verification: boolean;
  captcha_required: boolean;
  success_redirect_url: string;
  /** '' for "the visitor's language" */
  locale: string;
}

/** The editor of a form's settings (spec 2.1), for owners and admins. */
export function FormSettingsForm({
  action,
  initial,
  submitLabel,
  languages,
}: {
  action: (state: FormState, form: FormData) => Promise<FormState>;
  initial: FormSettingsValues;
  submitLabel: string;
  /** the shipped languages, each named in its own language */
  languages: readonly { value: string; label: string }[];
}) {
  const [state, formAction] = useActionState<FormState, FormData>(action, {});
  const id = useId();
  const v = state.values;
  const domainsError = state.errors?.allowed_domains;
  const checked = (name: "require_verification" | "captcha_required") =>
    v ? v[name] === "on" : initial[name];
  return (
    <form action={formAction} className="stack" noValidate aria-describedby="form-message">
      <FormMessage state={state} />
      <Field
        label="Name"
        name="name"
        state={state}
        defaultValue={v?.name ?? initial.name}
        required
        maxLength={200}
      />
      <div className="field">
        <label htmlFor={`${id}-domains`}>Allowed domains</label>
        <textarea
          id={`${id}-domains`}
          name="allowed_domains"
          rows={3}
          defaultValue={v?.allowed_domains ?? initial.allowed_domains}
          aria-invalid={domainsError ? true : undefined}
          aria-describedby={`${id}-domains-hint${domainsError ? ` ${id}-domains-error` : ""}`}
        />
        <span id={`${id}-domains-hint`} className="hint">
          One per line: example.com, *.example.com for every subdomain, or localhost:4000. Leave empty to
          accept submissions from any website (open mode).
        </span>
        {domainsError && (
          <span id={`${id}-domains-error`} className="field-error">
            {domainsError}
          </span>
        )}
      </div>
      <label className="check">
        <input type="checkbox" name="require_verification" defaultChecked={checked("require_verification")} />
        <span>
          Require email verification
          <span className="hint" style={{ display: "block" }}>
            When the email already belongs to a contact, changes apply only after the link we email is opened.
          </span>
        </span>
      </label>
      <label className="check">
        <input type="checkbox" name="captcha_required" defaultChecked={checked("captcha_required")} />
        <span>Bot check (captcha) required</span>
      </label>
      <Field
        label="Success page URL (optional)"
        name="success_redirect_url"
        type="url"
        state={state}
        defaultValue={v?.success_redirect_url ?? initial.success_redirect_url}
        hint="Where visitors go after submitting, for example https://example.com/thanks."
      />
      <SelectField
        label="Language"
        name="locale"
        state={state}
        options={[{ value: "", label: "The visitor's language" }, ...languages]}
        defaultValue={v?.locale ?? initial.locale}
        hint="The language of the form's messages and confirmation email; a new contact, or one without a language, gets it as theirs."
      />
      <div>
        <SubmitButton>{submitLabel}</SubmitButton>
      </div>
    </form>
  );
}
