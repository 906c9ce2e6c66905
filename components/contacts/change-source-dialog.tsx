"use client";

import { useActionState, useId, useRef } from "react";
import { SubmitButton } from "@/components/form-controls";
import { StatusMessage } from "./status-message";
import { CONTACT_SOURCES } from "@/lib/contacts/types";
import type { FormState } from "@/lib/http/form-state";

/** Spec 4.15 updateContactSource, for owners and admins: a new source and the reason. */
export function ChangeSourceDialog({
  action,
  current,
}: {
  action: (prev: FormState, form: FormData) => Promise<FormState>;
  current: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [state, formAction] = useActionState<FormState, FormData>(action, {});
  return (
    <>
      <button type="button" className="secondary" onClick={() => dialog.current?.showModal()}>
        Change source
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`}>
        <form action={formAction} className="stack">
          <h2 id={`${id}-title`} style={{ marginTop: 0 }}>
            Change the contact&rsquo;s source
          </h2>
          <p className="hint">
            The source says how the contact first reached you. The change and your reason are recorded on the
            timeline.
          </p>
          <StatusMessage state={state} />
          <label>
            New source
            <select name="source" defaultValue={state.values?.source ?? current}>
              {CONTACT_SOURCES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label>
            Reason
            <textarea
              name="reason"
              rows={3}
              required
              maxLength={1000}
              defaultValue={state.values?.reason ?? ""}
            />
          </label>
          <div className="row">
            <SubmitButton pendingLabel="Saving…">Change source</SubmitButton>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
