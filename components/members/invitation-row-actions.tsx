"use client";

import { useActionState } from "react";
import { resendInvitationAction, revokeInvitationAction } from "@/app/(dashboard)/settings/members/actions";
import { ConfirmAction } from "@/components/confirm-action";
import { FormMessage, SubmitButton } from "@/components/form-controls";
import type { FormState } from "@/lib/http/form-state";

/** Resend or revoke one open invitation. */
export function InvitationRowActions({ invitationId, email }: { invitationId: string; email: string }) {
  const [state, resend] = useActionState<FormState, FormData>(resendInvitationAction, {});
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
        action={revokeInvitationAction}
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
