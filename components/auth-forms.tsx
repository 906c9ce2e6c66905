"use client";

import Link from "next/link";
import { useActionState } from "react";
import { ActionForm } from "@/components/ui/action-form";
import type { FormAction, FormState } from "@/lib/http/form-state";
import { Field, FormMessage, SubmitButton } from "./form-controls";

/** A password field; which one (current or new) is the autoComplete. */
function PasswordField({
  state,
  label = "Password",
  name = "password",
  autoComplete,
  hint,
}: {
  state: FormState;
  label?: string;
  name?: string;
  autoComplete: "current-password" | "new-password";
  hint?: string;
}) {
  return (
    <Field
      label={label}
      name={name}
      type="password"
      autoComplete={autoComplete}
      hint={hint}
      state={state}
      required
    />
  );
}

function EmailField({ state }: { state: FormState }) {
  return <Field label="Email" name="email" type="email" autoComplete="email" state={state} required />;
}

export function SignInForm({ action, next, notice }: { action: FormAction; next?: string; notice?: string }) {
  return (
    <ActionForm action={action} initial={notice ? { success: notice } : {}}>
      {(state) => (
        <>
          {next && <input type="hidden" name="next" value={next} />}
          <EmailField state={state} />
          <PasswordField state={state} autoComplete="current-password" />
          <SubmitButton pendingLabel="Signing in…">Sign in</SubmitButton>
          <p className="hint">
            <Link href="/forgot-password">Forgot your password?</Link> · No account yet?{" "}
            <Link href="/sign-up">Create one</Link>
          </p>
        </>
      )}
    </ActionForm>
  );
}

export function SignUpForm({ action }: { action: FormAction }) {
  const [state, formAction] = useActionState<FormState, FormData>(action, {});
  if (state.success)
    return (
      <div className="stack">
        <FormMessage state={state} />
        <p className="hint">
          {/* a full load: the same route would keep this form's state */}
          Wrong address? <a href="/sign-up">Start again</a>
        </p>
      </div>
    );
  return (
    <form action={formAction} className="stack" noValidate aria-describedby="form-message">
      <FormMessage state={state} />
      <div className="row">
        <Field label="First name" name="firstName" autoComplete="given-name" state={state} />
        <Field label="Last name" name="lastName" autoComplete="family-name" state={state} />
      </div>
      <EmailField state={state} />
      <PasswordField state={state} autoComplete="new-password" hint="At least 8 characters." />
      <Field
        label="Workspace name"
        name="workspaceName"
        hint="Your business or team."
        state={state}
        required
      />
      <SubmitButton pendingLabel="Creating your account…">Create account</SubmitButton>
      <p className="hint">
        Already have an account? <Link href="/sign-in">Sign in</Link>
      </p>
    </form>
  );
}

/** The sign-up link's page: the password chosen at sign-up finishes the account. */
export function ConfirmSignUpForm({ action, token }: { action: FormAction; token: string }) {
  return (
    <ActionForm action={action}>
      {(state) => (
        <>
          <input type="hidden" name="token" value={token} />
          <PasswordField
            state={state}
            autoComplete="current-password"
            hint="The password you chose when you signed up."
          />
          <SubmitButton pendingLabel="Confirming…">Confirm and sign in</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}

export function ForgotPasswordForm({ action }: { action: FormAction }) {
  return (
    <ActionForm action={action}>
      {(state) => (
        <>
          <EmailField state={state} />
          <SubmitButton pendingLabel="Sending…">Send me a link</SubmitButton>
          <p className="hint">
            <Link href="/sign-in">Back to sign in</Link>
          </p>
        </>
      )}
    </ActionForm>
  );
}

export function ResetPasswordForm({ action, token }: { action: FormAction; token?: string }) {
  return (
    <ActionForm action={action}>
      {(state) => (
        <>
          {token && <input type="hidden" name="token" value={token} />}
          <PasswordField
            state={state}
            label="New password"
            autoComplete="new-password"
            hint="At least 8 characters."
          />
          <SubmitButton pendingLabel="Saving…">Set new password</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}

/** A signed-in user's new password, with the current one. */
export function ChangePasswordForm({ action }: { action: FormAction }) {
  return (
    <ActionForm action={action} messageId="password-message">
      {(state) => (
        <>
          <PasswordField
            state={state}
            label="Current password"
            name="currentPassword"
            autoComplete="current-password"
          />
          <PasswordField
            state={state}
            label="New password"
            name="newPassword"
            autoComplete="new-password"
            hint="At least 8 characters. Every other session is signed out."
          />
          <div>
            <SubmitButton pendingLabel="Changing…">Change password</SubmitButton>
          </div>
        </>
      )}
    </ActionForm>
  );
}
