"use client";

import { useActionState, useEffect, useId, useRef } from "react";
import { SubmitButton } from "@/components/form-controls";
import { StatusMessage } from "@/components/ui/status-message";
import type { FormState } from "@/lib/http/form-state";

/** The add-note box on a contact's page. */
export function NoteForm({ action }: { action: (prev: FormState, form: FormData) => Promise<FormState> }) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [state, formAction] = useActionState<FormState, FormData>(action, {});
  const error = state.errors?.text;
  useEffect(() => {
    if (state.success) form.current?.reset();
  }, [state]);
  return (
    <form ref={form} action={formAction} className="stack">
      <label htmlFor={id}>Add a note</label>
      <textarea
        id={id}
        name="text"
        rows={3}
        maxLength={10_000}
        defaultValue={state.values?.text ?? ""}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
      <StatusMessage state={{ success: state.success }} />
      <div>
        <SubmitButton pendingLabel="Adding…">Add note</SubmitButton>
      </div>
    </form>
  );
}
