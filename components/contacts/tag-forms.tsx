"use client";

import { useActionState } from "react";
import { Field, SubmitButton } from "@/components/form-controls";
import type { FormState } from "@/lib/http/form-state";
import { StatusMessage } from "@/components/ui/status-message";

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

/** One-field tag form: create a tag, or rename one. */
export function TagNameForm({
  action,
  label,
  submitLabel,
  initial,
  fields = {},
}: {
  action: Action;
  label: string;
  submitLabel: string;
  initial?: string;
  /** hidden fields sent with the name (the tag's id) */
  fields?: Record<string, string>;
}) {
  const [state, formAction] = useActionState<FormState, FormData>(action, {
    values: { name: initial ?? "" },
  });
  return (
    <form action={formAction} className="row" style={{ alignItems: "flex-end" }}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Field label={label} name="name" state={state} maxLength={100} required key={state.success ?? "form"} />
      <SubmitButton pendingLabel="Saving…">{submitLabel}</SubmitButton>
      <StatusMessage state={{ success: state.success }} />
    </form>
  );
}
