"use client";

import { useActionState } from "react";
import { Field, FormMessage, SubmitButton } from "@/components/form-controls";
import type { FormAction } from "@/lib/http/form-state";
import type { SecurityState } from "./types";
import { RecoveryCodes } from "./recovery-codes";

/** A change that takes a current code (turning two-factor off, new recovery codes). */
export function CodeForm({
  action,
  id,
  submit,
  pendingLabel,
  danger = false,
}: {
  action: FormAction<SecurityState>;
  id: string;
  submit: string;
  pendingLabel: string;
  danger?: boolean;
}) {
  const [state, formAction] = useActionState<SecurityState, FormData>(action, {});
  return (
    <form action={formAction} className="stack" noValidate aria-describedby={`${id}-message`}>
      <FormMessage state={state} id={`${id}-message`} />
      {state.recoveryCodes ? (
        <RecoveryCodes codes={state.recoveryCodes} />
      ) : (
        <>
          <Field
            label="Authentication code"
            name="code"
            autoComplete="one-time-code"
            hint="A current code from your app, or a recovery code."
            state={state}
            required
          />
          <div>
            <SubmitButton className={danger ? "danger" : undefined} pendingLabel={pendingLabel}>
              {submit}
            </SubmitButton>
          </div>
        </>
      )}
    </form>
  );
}
