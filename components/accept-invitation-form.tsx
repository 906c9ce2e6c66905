"use client";

import { useActionState } from "react";
import type { FormAction, FormState } from "@/lib/http/form-state";
import { FormMessage, SubmitButton } from "./form-controls";

export function AcceptInvitationForm({
  token,
  workspaceName,
  acceptAction,
}: {
  token: string;
  workspaceName: string;
  acceptAction: FormAction;
}) {
  const [state, action] = useActionState<FormState, FormData>(acceptAction, {});
  return (
    <form action={action} className="stack" aria-describedby="form-message">
      <FormMessage state={state} />
      <input type="hidden" name="token" value={token} />
      <div>
        <SubmitButton pendingLabel="Joining…">Join {workspaceName}</SubmitButton>
      </div>
    </form>
  );
}
