"use client";

import { useStepUpAction } from "@/components/two-factor/step-up-prompt";
import type { IssueKeyState } from "@/lib/api-keys/issue-api-key";
import { Field, FormMessage, SubmitButton } from "@/components/form-controls";

/** Issues a public events API key and shows the raw key once. */
export function IssueApiKeyForm({
  action,
}: {
  action: (prev: IssueKeyState, form: FormData) => Promise<IssueKeyState>;
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
        <SubmitButton pendingLabel="Creating…">Create key</SubmitButton>
      </form>
      {stepUp}
    </>
  );
}
