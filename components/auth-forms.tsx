"use client";

import Link from "next/link";
import { useActionState } from "react";
import { signInAction, signUpAction } from "@/app/(auth)/actions";
import type { FormState } from "@/lib/http/form-state";
import { Field, FormMessage, SubmitButton } from "./form-controls";

export function SignInForm() {
  const [state, action] = useActionState<FormState, FormData>(signInAction, {});
  return (
    <form action={action} className="stack" noValidate aria-describedby="form-message">
      <FormMessage state={state} />
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
        No account yet? <Link href="/sign-up">Create one</Link>
      </p>
    </form>
  );
}

export function SignUpForm() {
  const [state, action] = useActionState<FormState, FormData>(signUpAction, {});
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
      <SubmitButton pendingLabel="Creating your workspace…">Create account</SubmitButton>
      <p className="hint">
        Already have an account? <Link href="/sign-in">Sign in</Link>
      </p>
    </form>
  );
}
