"use client";

import { useId } from "react";
import { useStepUpAction } from "@/components/two-factor/step-up-prompt";
import { FormMessage, SubmitButton } from "@/components/form-controls";
import type { FormAction, FormState } from "@/lib/http/form-state";
import type { Role } from "@/lib/workspaces/list-memberships";

/** A member's role, changeable by those allowed to; the outcome is announced beside it. */
export function RoleForm({
  userId,
  role,
  roles,
  memberLabel,
  changeRoleAction,
}: {
  userId: string;
  role: Role;
  roles: Role[];
  memberLabel: string;
  changeRoleAction: FormAction;
}) {
  const id = useId();
  const [state, action, stepUp] = useStepUpAction<FormState>(changeRoleAction, {});
  return (
    <>
      <form action={action} aria-describedby={`${id}-message`}>
        <input type="hidden" name="userId" value={userId} />
        <div className="row">
          <label htmlFor={`${id}-role`} className="sr-only">
            Role for {memberLabel}
          </label>
          <select id={`${id}-role`} key={role} name="role" defaultValue={state.values?.role ?? role}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          <SubmitButton className="secondary" pendingLabel="Saving…">
            Change role<span className="sr-only"> for {memberLabel}</span>
          </SubmitButton>
        </div>
        <FormMessage state={state} id={`${id}-message`} />
      </form>
      {stepUp}
    </>
  );
}
