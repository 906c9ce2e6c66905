"use client";

import { useActionState } from "react";
import { addMemberAction, type AddMemberState } from "@/app/(dashboard)/settings/members/actions";
import { Field, FormMessage, SelectField, SubmitButton } from "@/components/form-controls";
import type { Role } from "@/lib/workspaces/list-memberships";

/** Owners and admins add a member by email; a temporary password is shown here once. */
export function AddMemberForm({ roles }: { roles: Role[] }) {
  const [state, action] = useActionState<AddMemberState, FormData>(addMemberAction, {});
  return (
    <form action={action} className="stack" noValidate aria-describedby="add-member-message">
      <FormMessage state={state} id="add-member-message" />
      {state.temporaryPassword && (
        <div className="alert info" role="status" data-testid="temporary-password-notice">
          <p style={{ marginTop: 0 }}>
            A new account was created for <strong>{state.addedEmail}</strong>. Give them this temporary
            password; it is shown only this once.
          </p>
          <p style={{ marginBottom: 0 }}>
            Temporary password: <code data-testid="temporary-password">{state.temporaryPassword}</code>
          </p>
        </div>
      )}
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
        <SubmitButton pendingLabel="Adding…">Add member</SubmitButton>
      </div>
    </form>
  );
}
