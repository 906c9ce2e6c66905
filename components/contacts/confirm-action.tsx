"use client";

import { useActionState, useEffect, useId, useRef } from "react";
import { SubmitButton } from "@/components/form-controls";
import { StatusMessage } from "./status-message";
import type { FormState } from "@/lib/http/form-state";

/**
 * A destructive action behind a confirmation: the button opens a modal dialog (focus moves
 * into it, Escape closes it) and only its confirm button runs the action.
 */
export function ConfirmAction({
  action,
  label,
  title,
  body,
  confirmLabel,
}: {
  action: (prev: FormState) => Promise<FormState>;
  label: string;
  title: string;
  body: string;
  confirmLabel: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [state, formAction] = useActionState<FormState>(action, {});
  useEffect(() => {
    if (state.success) dialog.current?.close();
  }, [state]);
  return (
    <>
      <button type="button" className="danger" onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`} aria-describedby={`${id}-body`}>
        <form action={formAction} className="stack">
          <h2 id={`${id}-title`} style={{ marginTop: 0 }}>
            {title}
          </h2>
          <p id={`${id}-body`}>{body}</p>
          <StatusMessage state={state} />
          <div className="row">
            <SubmitButton className="danger" pendingLabel="Working…">
              {confirmLabel}
            </SubmitButton>
            <button type="button" className="secondary" autoFocus onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
