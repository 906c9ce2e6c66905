"use client";

import { useId, useRef } from "react";

/**
 * A destructive action behind a confirmation dialog: the button opens a modal dialog
 * (focus moves into it, Escape closes it) whose form runs the server action.
 */
export function ConfirmButton({
  label,
  title,
  message,
  confirmLabel,
  action,
  fields,
}: {
  label: string;
  title: string;
  message: string;
  confirmLabel: string;
  action: (form: FormData) => Promise<void>;
  fields: Record<string, string>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  return (
    <>
      <button type="button" className="danger" onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId}>
        <form action={action} className="stack">
          <h2 id={titleId}>{title}</h2>
          <p>{message}</p>
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <div className="row">
            <button type="submit" className="danger">
              {confirmLabel}
            </button>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()} autoFocus>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
