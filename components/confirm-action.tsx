"use client";

import { useActionState, useId, useRef } from "react";
import type { FormState } from "@/lib/http/form-state";
import { FormMessage, SubmitButton } from "./form-controls";

/**
 * A destructive action behind a confirmation step: the trigger opens a modal <dialog>
 * (focus moves to Cancel, Escape or Cancel closes it, focus returns to the trigger) whose
 * form runs the server action. A refusal is announced inside the dialog.
 */
export function ConfirmAction({
  action,
  fields,
  triggerLabel,
  triggerAccessibleName,
  title,
  description,
  confirmLabel,
}: {
  action: (prev: FormState, form: FormData) => Promise<FormState>;
  fields: Record<string, string>;
  triggerLabel: string;
  triggerAccessibleName?: string;
  title: string;
  description: string;
  confirmLabel: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const id = useId();
  const [state, formAction] = useActionState(action, {});
  return (
    <>
      <button
        type="button"
        className="secondary"
        aria-haspopup="dialog"
        aria-label={triggerAccessibleName}
        onClick={() => {
          dialog.current?.showModal();
          // Start on the safe choice: Enter or Space then cancels rather than destroys.
          cancel.current?.focus();
        }}
      >
        {triggerLabel}
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`} aria-describedby={`${id}-description`}>
        <form action={formAction} className="stack">
          <h2 id={`${id}-title`}>{title}</h2>
          <p id={`${id}-description`}>{description}</p>
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <FormMessage state={state} id={`${id}-message`} />
          <div className="row">
            <SubmitButton className="danger" pendingLabel="Working…">
              {confirmLabel}
            </SubmitButton>
            <button ref={cancel} type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
