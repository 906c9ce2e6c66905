"use client";

import { useStepUpAction } from "@/components/two-factor/step-up-prompt";
import type { IssueKeyState } from "@/lib/api-keys/issue-api-key";
import { Field, FormMessage, SubmitButton } from "@/components/form-controls";

/**
 * Issues a workspace API key (docs/api.md): a name, the scopes it holds (the public events
 * list's `events:read` chosen to begin with) and an optional last day; the raw key is shown once.
 */
export function IssueApiKeyForm({
  action,
  scopes,
  today,
}: {
  action: (prev: IssueKeyState, form: FormData) => Promise<IssueKeyState>;
  /** each scope and what it allows */
  scopes: [scope: string, label: string][];
  /** today in the viewer's time zone: the earliest expiry */
  today: string;
}) {
  const [state, formAction, stepUp] = useStepUpAction<IssueKeyState>(action, {});
  return (
    <>
      <form action={formAction} className="stack card" noValidate aria-describedby="form-message">
        <FormMessage state={state} />
        {state.key && (
          <label>
            Your new key
            <input
              readOnly
              value={state.key}
              data-testid="new-api-key"
              onFocus={(e) => e.currentTarget.select()}
            />
          </label>
        )}
        <Field label="Key name" name="name" state={state} hint="Where it is used, e.g. “Website”." required />
        <fieldset aria-describedby={state.errors?.scopes ? "scopes-error" : undefined}>
          <legend>Scopes</legend>
          {scopes.map(([scope, label]) => (
            <label key={scope} className="row" style={{ gap: "0.5rem" }}>
              <input type="checkbox" name="scopes" value={scope} defaultChecked={scope === "events:read"} />
              <code>{scope}</code> {label}
            </label>
          ))}
          {state.errors?.scopes && (
            <span id="scopes-error" className="field-error">
              {state.errors.scopes}
            </span>
          )}
        </fieldset>
        <Field
          label="Expires after (optional)"
          name="expiresOn"
          type="date"
          min={today}
          state={state}
          hint="The key works through the end of this day (your time zone); empty: until revoked."
        />
        <SubmitButton pendingLabel="Creating…">Create key</SubmitButton>
      </form>
      {stepUp}
    </>
  );
}
