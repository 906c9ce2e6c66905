"use client";

import { useActionState } from "react";
import { changePasswordAction } from "@/app/(dashboard)/settings/account-actions";
import type { FormState } from "@/lib/http/form-state";
import { Field, FormMessage, SubmitButton } from "./form-controls";

export function ChangePasswordForm() {
  const [state, action] = useActionState<FormState, FormData>(changePasswordAction, {});
  return (
    <form action={action} className="stack" noValidate aria-describedby="password-message">
      <FormMessage state={state} id="password-message" />
      <Field
        label="Current password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        state={state}
        required
      />
      <Field
        label="New password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters. Every other session is signed out."
        state={state}
        required
      />
      <div>
        <SubmitButton pendingLabel="Changing…">Change password</SubmitButton>
      </div>
    </form>
  );
}
