"use client";

import Link from "next/link";
import { useActionState } from "react";
import { signInAction, signUpAction } from "@/app/(auth)/actions";
import { confirmSignUpAction, requestResetAction, resetPasswordAction } from "@/app/(auth)/password-actions";
import type { FormState } from "@/lib/http/form-state";
import { Field, FormMessage, SubmitButton } from "./form-controls";

export function SignInForm({ next, notice }: { next?: string; notice?: string }) {
  const [state, action] = useActionState<FormState, FormData>(
    signInAction,
    notice ? { success: notice } : {},
  );
  return (
    <form action={action} className="stack" noValidate aria-describedby="form-message">
      <FormMessage state={state} />
      {next && <input type="hidden" name="next" value={next} />}
      <Field label="Email" name="email" type="email" autoComplete="email" state={state} required />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        state={state}
        required
      />
      <SubmitButton pendingLabel="Signing in…">Sign in</SubmitButton>
      <p className="hint">
        <Link href="/forgot-password">Forgot your password?</Link> · No account yet?{" "}
        <Link href="/sign-up">Create one</Link>
      </p>
    </form>
  );
}

export function SignUpForm() {
  const [state, action] = useActionState<FormState, FormData>(signUpAction, {});
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
    <form action={action} className="stack" noValidate aria-describedby="form-message">
      <FormMessage state={state} />
      <div className="row">
        <Field label="First name" name="firstName" autoComplete="given-name" state={state} />
        <Field label="Last name" name="lastName" autoComplete="family-name" state={state} />
      </div>
      <Field label="Email" name="email" type="email" autoComplete="email" state={state} required />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters."
        state={state}
        required
      />
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
export function ConfirmSignUpForm({ token }: { token: string }) {
  const [state, action] = useActionState<FormState, FormData>(confirmSignUpAction, {});
  return (
    <form action={action} className="stack" noValidate aria-describedby="form-message">
      <FormMessage state={state} />
      <input type="hidden" name="token" value={token} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        hint="The password you chose when you signed up."
        state={state}
        required
      />
      <SubmitButton pendingLabel="Confirming…">Confirm and sign in</SubmitButton>
    </form>
  );
}

export function ForgotPasswordForm() {
  const [state, action] = useActionState<FormState, FormData>(requestResetAction, {});
  return (
    <form action={action} className="stack" noValidate aria-describedby="form-message">
      <FormMessage state={state} />
      <Field label="Email" name="email" type="email" autoComplete="email" state={state} required />
      <SubmitButton pendingLabel="Sending…">Send me a link</SubmitButton>
      <p className="hint">
        <Link href="/sign-in">Back to sign in</Link>
      </p>
    </form>
  );
}

export function ResetPasswordForm({ token }: { token?: string }) {
  const [state, action] = useActionState<FormState, FormData>(resetPasswordAction, {});
  return (
    <form action={action} className="stack" noValidate aria-describedby="form-message">
      <FormMessage state={state} />
      {token && <input type="hidden" name="token" value={token} />}
      <Field
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters."
        state={state}
        required
      />
      <SubmitButton pendingLabel="Saving…">Set new password</SubmitButton>
    </form>
  );
}
