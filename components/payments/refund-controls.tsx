"use client";

import { useActionState, useEffect, useId, useRef } from "react";
import type { FormState } from "@/lib/http/form-state";
import { ConfirmAction } from "@/components/confirm-action";
import { Field, SubmitButton } from "@/components/form-controls";
import { recordRefundFormAction, revertRefundFormAction } from "./transaction-actions";

interface Props {
  transactionId: string;
  workspaceId: string;
  description: string;
  remaining: string;
  remainingCents: number;
  refunded: string;
  refundedCents: number;
}

/** Record a refund (a dialog with the amount) and revert one (after confirming), for one purchase. */
export function RefundControls(props: Props) {
  return (
    <div className="row">
      {props.remainingCents > 0 && <RecordRefund {...props} />}
      {props.refundedCents > 0 && <RevertRefund {...props} />}
    </div>
  );
}

function RecordRefund({ transactionId, workspaceId, description, remaining }: Props) {
  const [state, action] = useActionState<FormState, FormData>(recordRefundFormAction, {});
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    if (state.success) dialog.current?.close();
  }, [state]);
  return (
    <>
      <button type="button" className="secondary" onClick={() => dialog.current?.showModal()}>
        Record refund<span className="sr-only"> for {description}</span>
      </button>
      <dialog ref={dialog} aria-labelledby={titleId}>
        <form action={action} className="stack" noValidate>
          <h2 id={titleId} style={{ margin: 0 }}>
            Record a refund for {description}
          </h2>
          <div role="status" aria-live="polite">
            {state.message && <div className="alert error">{state.message}</div>}
          </div>
          <input type="hidden" name="transactionId" value={transactionId} />
          <input type="hidden" name="workspaceId" value={workspaceId} />
          <Field
            label="Amount refunded (dollars)"
            name="refundAmount"
            inputMode="decimal"
            hint={`At most ${remaining}.`}
            state={state}
            autoFocus
            required
          />
          <label className="check">
            <input type="checkbox" name="runAutomations" defaultChecked />
            Run the &lsquo;product refunded&rsquo; automations when it is fully refunded
          </label>
          <div className="row">
            <SubmitButton pendingLabel="Recording…">Record refund</SubmitButton>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

function RevertRefund({ transactionId, workspaceId, description, refunded }: Props) {
  return (
    <ConfirmAction
      action={revertRefundFormAction}
      fields={{ transactionId, workspaceId }}
      label="Revert refund"
      accessibleName={`Revert refund for ${description}`}
      title={`Revert the refund of ${refunded}?`}
      body={`${description} will show as paid in full again. Nothing is sent to the payment processor.`}
      confirmLabel="Revert refund"
      className="secondary"
    />
  );
}
