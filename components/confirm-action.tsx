"use client";

import { useActionState, useEffect, useId, useRef } from "react";
import type { FormState } from "@/lib/http/form-state";
import { FormMessage, SubmitButton } from "./form-controls";

/**
 * A destructive action behind a confirmation step: the trigger opens a modal <dialog>
 * (focus moves to Cancel, Escape or Cancel closes it, focus returns to the trigger) and only
 * its confirm button runs the server action. A refusal the action returns is announced inside
 * the dialog; a success closes it. `accessibleName` names the trigger for assistive technology
 * where its visible label alone is ambiguous (a "Remove" on every row).
 */
export function ConfirmAction({
  action,
  fields = {},
  label,
  accessibleName,
  title,
  body,
  confirmLabel,
  className = "danger",
}: {
  action: (prev: FormState, form: FormData) => Promise<FormState>;
  fields?: Record<string, string>;
  label: string;
  accessibleName?: string;
  title: string;
  body: string;
  confirmLabel: string;
  className?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const id = useId();
  const [state, formAction] = useActionState(action, {});
  useEffect(() => {
    if (state.success) dialog.current?.close();
  }, [state]);
  return (
    <>
      <button
        type="button"
        className={className}
        aria-haspopup="dialog"
        aria-label={accessibleName}
        onClick={() => {
          dialog.current?.showModal();
          // Start on the safe choice: Enter or Space then cancels rather than destroys.
          cancel.current?.focus();
        }}
      >
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`} aria-describedby={`${id}-body`}>
        <form action={formAction} className="stack">
          <h2 id={`${id}-title`} style={{ marginTop: 0 }}>
            {title}
          </h2>
          <p id={`${id}-body`}>{body}</p>
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
