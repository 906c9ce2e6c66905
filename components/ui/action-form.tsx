"use client";

import { useActionState, type ReactNode } from "react";
import { FormMessage } from "@/components/form-controls";
import type { FormAction, FormState } from "@/lib/http/form-state";

/**
 * A form behind a server action (handed in by the page): its state, the announced message
 * above the fields, and the fields, which see the state (errors, kept values, answers).
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
  const [state, formAction] = useActionState<S, FormData>(action, initial as Awaited<S>);
  return (
    <form action={formAction} className={className} noValidate aria-describedby={messageId}>
      <FormMessage state={state} id={messageId} />
      {children(state)}
    </form>
  );
}
