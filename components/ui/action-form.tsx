"use client";

import type { ReactNode } from "react";
import { FormMessage } from "@/components/form-controls";
import { useStepUpAction } from "@/components/two-factor/step-up-prompt";
import type { FormAction, FormState } from "@/lib/http/form-state";

/**
 * A form behind a server action (handed in by the page): its state, the announced message
 * above the fields, and the fields, which see the state (errors, kept values, answers). An
 * action that answers `step_up_required` asks for the password or code below, then runs again.
 */
export function ActionForm<S extends FormState>({
  action,
  initial = {} as S,
  messageId = "form-message",
  className = "stack",
  children,
}: {
  action: FormAction<S>;
  initial?: S;
  messageId?: string;
  className?: string;
  children: (state: S) => ReactNode;
}) {
  const [state, formAction, stepUp] = useStepUpAction<S>(action, initial);
  return (
    <>
      <form action={formAction} className={className} noValidate aria-describedby={messageId}>
        <FormMessage state={state} id={messageId} />
        {children(state)}
      </form>
      {stepUp}
    </>
  );
}
