"use client";

import { useActionState, useEffect } from "react";
import type { FormState } from "@/lib/http/form-state";
import { ConfirmAction } from "@/components/confirm-action";
import { Field } from "@/components/form-controls";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { StatusMessage } from "@/components/ui/status-message";

type FormAction = (prev: FormState, form: FormData) => Promise<FormState>;

/** The server actions behind the controls, passed down from the page. */
export interface RefundActions {
  recordRefund: FormAction;
  revertRefund: FormAction;
}

interface Props extends RefundActions {
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

function RecordRefund(props: Props) {
  return (
    <Dialog
      label={
        <>
          Record refund<span className="sr-only"> for {props.description}</span>
        </>
      }
      title={`Record a refund for ${props.description}`}
      className="secondary"
    >
      {(close) => <RecordRefundForm {...props} close={close} />}
    </Dialog>
  );
}

function RecordRefundForm({
  recordRefund,
  transactionId,
  workspaceId,
  remaining,
  close,
}: Props & { close: () => void }) {
  const [state, action] = useActionState<FormState, FormData>(recordRefund, {});
  useEffect(() => {
    if (state.success) close();
  }, [state, close]);
  return (
    <form action={action} className="stack" noValidate>
      <StatusMessage state={{ message: state.message }} />
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
      <DialogActions submit="Record refund" pending="Recording…" onCancel={close} />
    </form>
  );
}

function RevertRefund({ revertRefund, transactionId, workspaceId, description, refunded }: Props) {
  return (
    <ConfirmAction
      action={revertRefund}
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
