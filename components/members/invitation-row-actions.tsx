"use client";

import { useActionState } from "react";
import { ConfirmAction } from "@/components/confirm-action";
import { FormMessage, SubmitButton } from "@/components/form-controls";
import type { FormAction, FormState } from "@/lib/http/form-state";

/** Resend or revoke one open invitation. */
export function InvitationRowActions({
  invitationId,
  email,
  resendAction,
  revokeAction,
}: {
  invitationId: string;
  email: string;
  resendAction: FormAction;
  revokeAction: FormAction;
}) {
  const [state, resend] = useActionState<FormState, FormData>(resendAction, {});
  return (
    <div className="row">
      <form action={resend}>
        <input type="hidden" name="invitationId" value={invitationId} />
        <SubmitButton className="secondary" pendingLabel="Sending…">
          Resend
        </SubmitButton>
        <FormMessage state={state} id={`resend-${invitationId}`} />
      </form>
      <ConfirmAction
        action={revokeAction}
        fields={{ invitationId }}
        label="Revoke"
        accessibleName={`Revoke the invitation to ${email}`}
        className="secondary"
        title={`Revoke the invitation to ${email}?`}
        body="Its link stops working at once. You can invite the address again later."
        confirmLabel="Revoke invitation"
      />
    </div>
  );
}
