"use client";

import { useStepUpAction } from "@/components/two-factor/step-up-prompt";
import { Field, FormMessage, SelectField, SubmitButton } from "@/components/form-controls";
import type { FormAction, FormState } from "@/lib/http/form-state";
import type { Role } from "@/lib/workspaces/list-memberships";

/**
 * Owners and admins invite by email (docs/decisions.md, "Invitations instead of direct adds"); an
 * invitation to owner or admin asks for a step-up first when the session is not fresh.
 */
export function InviteMemberForm({ roles, inviteAction }: { roles: Role[]; inviteAction: FormAction }) {
  const [state, action, stepUp] = useStepUpAction<FormState>(inviteAction, {});
  return (
    <>
      <form action={action} className="stack" noValidate aria-describedby="invite-member-message">
        <FormMessage state={state} id="invite-member-message" />
        <div className="row" style={{ alignItems: "flex-start" }}>
          <Field label="Email" name="email" type="email" autoComplete="off" state={state} required />
          <SelectField
            label="Role"
            name="role"
            state={state}
            defaultValue="member"
            options={roles.map((r) => ({ value: r, label: r[0].toUpperCase() + r.slice(1) }))}
          />
        </div>
        <div>
          <SubmitButton pendingLabel="Sending…">Send invitation</SubmitButton>
        </div>
      </form>
      {stepUp}
    </>
  );
}
