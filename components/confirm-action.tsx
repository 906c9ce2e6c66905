"use client";

import { useEffect, useId } from "react";
import { useStepUpAction } from "./two-factor/step-up-prompt";
import type { FormState } from "@/lib/http/form-state";
import { FormMessage } from "./form-controls";
import { Dialog, DialogActions } from "./ui/dialog";

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

/**
 * A destructive action behind a confirmation step (components/ui/dialog.tsx): focus starts on
 * Cancel, so Enter or Space cancels rather than destroys, and only the confirm button runs the
 * server action. A refusal the action returns is announced inside the dialog; a success closes it.
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
  action: Action;
  fields?: Record<string, string>;
  label: string;
  accessibleName?: string;
  title: string;
  body: string;
  confirmLabel: string;
  className?: string;
}) {
  return (
    <Dialog
      label={label}
      accessibleName={accessibleName}
      title={title}
      description={body}
      className={className}
    >
      {(close) => <ConfirmForm action={action} fields={fields} confirmLabel={confirmLabel} close={close} />}
    </Dialog>
  );
}

function ConfirmForm({
  action,
  fields,
  confirmLabel,
  close,
}: {
  action: Action;
  fields: Record<string, string>;
  confirmLabel: string;
  close: () => void;
}) {
  const id = useId();
  const [state, formAction, stepUp] = useStepUpAction<FormState>(action, {});
  useEffect(() => {
    if (state.success) close();
  }, [state, close]);
  return (
    <>
      <form action={formAction} className="stack">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <FormMessage state={state} id={`${id}-message`} />
        <DialogActions submit={confirmLabel} pending="Working…" onCancel={close} danger cancelFirst />
      </form>
      {stepUp}
    </>
  );
}
