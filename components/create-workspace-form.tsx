"use client";

import { useActionState } from "react";
import type { FormAction, FormState } from "@/lib/http/form-state";
import { Field, FormMessage, SubmitButton } from "./form-controls";

/** Creates a workspace the signed-in user owns, then switches to it. */
export function CreateWorkspaceForm({ createAction }: { createAction: FormAction }) {
  const [state, action] = useActionState<FormState, FormData>(createAction, {});
  return (
    <form action={action} className="stack" noValidate aria-describedby="create-workspace-message">
      <FormMessage state={state} id="create-workspace-message" />
      <Field label="New workspace name" name="name" state={state} required maxLength={200} />
      <SubmitButton pendingLabel="Creating…">Create workspace</SubmitButton>
    </form>
  );
}
