"use client";

import { ActionForm } from "@/components/ui/action-form";
import { Field, SubmitButton } from "@/components/form-controls";
import type { FormAction } from "@/lib/http/form-state";

/** Sign-in's second step: the app's code, or a recovery code. */
export function SecondStepForm({ action, next }: { action: FormAction; next?: string }) {
  return (
    <ActionForm action={action}>
      {(state) => (
        <>
          {next && <input type="hidden" name="next" value={next} />}
          <Field
            label="Authentication code"
            name="code"
            autoComplete="one-time-code"
            spellCheck={false}
            autoCapitalize="none"
            hint="The 6-digit code from your authenticator app, or one of your recovery codes."
            state={state}
            required
            autoFocus
          />
          <SubmitButton pendingLabel="Checking…">Verify</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
