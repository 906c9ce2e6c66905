"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/form-controls";
import { Dialog } from "@/components/ui/dialog";
import { StatusMessage } from "@/components/ui/status-message";
import { CONTACT_SOURCES } from "@/lib/contacts/types";
import type { FormState } from "@/lib/http/form-state";

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

/** Spec 4.15 updateContactSource, for owners and admins: a new source and the reason. */
export function ChangeSourceDialog({ action, current }: { action: Action; current: string }) {
  return (
    <Dialog
      label="Change source"
      title="Change the contact’s source"
      description="The source says how the contact first reached you. The change and your reason are recorded on the timeline."
      className="secondary"
    >
      {(close) => <ChangeSourceForm action={action} current={current} close={close} />}
    </Dialog>
  );
}

function ChangeSourceForm({
  action,
  current,
  close,
}: {
  action: Action;
  current: string;
  close: () => void;
}) {
  const [state, formAction] = useActionState<FormState, FormData>(action, {});
  return (
    <form action={formAction} className="stack">
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
        <button type="button" className="secondary" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
