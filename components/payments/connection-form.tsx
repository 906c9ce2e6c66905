"use client";

import { useActionState, useRef } from "react";
import type { FormAction, FormState } from "@/lib/http/form-state";
import type { PayprocConnection } from "@/lib/payments/resolve-connection";
import { FormMessage, SubmitButton } from "@/components/form-controls";

/**
 * Spec 2.10: the settings a member chooses. The Stripe account and its live mode are not
 * fields: they come from Stripe Connect (docs/decisions.md, "Stripe Connect").
 */
export function ConnectionForm({
  action: save,
  connection,
}: {
  action: FormAction;
  connection: PayprocConnection;
}) {
  const [state, action] = useActionState<FormState, FormData>(save, {});
  const checked = (name: string, stored: boolean | undefined) =>
    state.values ? state.values[name] === "on" : Boolean(stored);
  return (
    <form action={action} className="stack" noValidate aria-describedby="form-message">
      <FormMessage state={state} />
      <label className="check">
        <input
          type="checkbox"
          name="autoSubscribePurchasers"
          defaultChecked={checked("autoSubscribePurchasers", connection.auto_subscribe_purchasers)}
          aria-describedby="auto-subscribe-hint"
        />
        Subscribe purchasers to marketing email
      </label>
      <span id="auto-subscribe-hint" className="hint">
        Never for contacts who reported spam or were blocked by an administrator; subscribed contacts keep
        their original consent.
      </span>
      <div>
        <SubmitButton>Save settings</SubmitButton>
      </div>
    </form>
  );
}

/** Disconnecting asks for confirmation first. */
export function DisconnectButton({ action: disconnect }: { action: FormAction }) {
  const [state, action] = useActionState<FormState, FormData>(disconnect, {});
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <div>
      <div role="status" aria-live="polite">
        {state.message && <div className="alert error">{state.message}</div>}
      </div>
      <button type="button" className="secondary" onClick={() => dialog.current?.showModal()}>
        Disconnect
      </button>
      <dialog ref={dialog} aria-labelledby="disconnect-title">
        <form action={action} className="stack" onSubmit={() => dialog.current?.close()}>
          <h2 id="disconnect-title" style={{ margin: 0 }}>
            Disconnect Stripe?
          </h2>
          <p>New purchases and refunds will no longer be recorded. Purchases already recorded stay.</p>
          <div className="row">
            <button type="submit" className="danger">
              Disconnect
            </button>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()} autoFocus>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </div>
  );
}
