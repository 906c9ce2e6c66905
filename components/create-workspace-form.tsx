"use client";

import { useActionState } from "react";
import { createWorkspaceAction } from "@/app/(dashboard)/workspace-actions";
import type { FormState } from "@/lib/http/form-state";
import { Field, FormMessage, SubmitButton } from "./form-controls";

/** Creates a workspace the signed-in user owns, then switches to it. */
export function CreateWorkspaceForm() {
  const [state, action] = useActionState<FormState, FormData>(createWorkspaceAction, {});
  return (
    <form action={action} className="stack" noValidate aria-describedby="create-workspace-message">
      <FormMessage state={state} id="create-workspace-message" />
      <Field label="New workspace name" name="name" state={state} required maxLength={200} />
      <SubmitButton pendingLabel="Creating…">Create workspace</SubmitButton>
    </form>
  );
}
