"use client";

import { useId, useRef } from "react";
import { SubmitButton } from "./form-controls";

/**
 * A destructive action behind a confirmation dialog (native <dialog>: focus moves into it,
 * Escape cancels). The confirm button submits a form to the given server action.
 */
export function ConfirmButton({
  action,
  label,
  title,
  body,
  confirmLabel,
  fields = {},
  className = "danger",
}: {
  action: (form: FormData) => void | Promise<void>;
  label: string;
  title: string;
  body: string;
  confirmLabel: string;
  fields?: Record<string, string>;
  className?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  return (
    <>
      <button type="button" className={className} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`} aria-describedby={`${id}-body`}>
        <form action={action} className="stack">
          <h2 id={`${id}-title`} style={{ marginTop: 0 }}>
            {title}
          </h2>
          <p id={`${id}-body`}>{body}</p>
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <div className="row">
            <SubmitButton className="danger" pendingLabel="Working…">
              {confirmLabel}
            </SubmitButton>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()} autoFocus>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
