"use client";

import { useActionState } from "react";
import { acceptInvitationAction } from "@/app/invitations/accept/actions";
import type { FormState } from "@/lib/http/form-state";
import { FormMessage, SubmitButton } from "./form-controls";

export function AcceptInvitationForm({ token, workspaceName }: { token: string; workspaceName: string }) {
  const [state, action] = useActionState<FormState, FormData>(acceptInvitationAction, {});
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
