"use client";

import { useActionState, useId, useState } from "react";
import { EmailStatusBadge } from "@/components/email-status-badge";
import { SubmitButton } from "@/components/form-controls";
import { LEGAL_BASES } from "@/lib/consent/consent-rules";
import type { EmailStatus } from "@/lib/consent/email-status";
import type { FormState } from "@/lib/http/form-state";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { StatusMessage } from "@/components/ui/status-message";

type FormAction = (prev: FormState, form: FormData) => Promise<FormState>;

export interface SubscriptionControlsProps {
  /** manual subscribe, bound to the contact by the page */
  subscribe: FormAction;
  /** plain unsubscribe, bound to the contact by the page */
  unsubscribe: (prev: FormState) => Promise<FormState>;
  status: EmailStatus;
  /** is_subscribed true and unsubscribed_at null */
  subscribed: boolean;
  hasComplaint: boolean;
}

function ManualSubscribeForm({
  subscribe,
  hasComplaint,
  close,
  onDone,
}: {
  subscribe: FormAction;
  hasComplaint: boolean;
  close: () => void;
  onDone: (message: string) => void;
}) {
  const [state, action] = useActionState<FormState, FormData>(async (prev, form) => {
    const result = await subscribe(prev, form);
    if (result.success) {
      onDone(result.success);
      close();
    }
    return result;
  }, {});
  const id = useId();
  const basisError = state.errors?.legalBasis;
  const attestError = state.errors?.attested;
  return (
    <form action={action} className="stack" noValidate>
      <StatusMessage state={{ message: state.message }} />
      {hasComplaint && (
        <div className="alert error">
          This address reported your email as spam. The complaint suppression is permanent: it stays, and this
          contact will receive no email even when subscribed.
        </div>
      )}
      <fieldset
        aria-describedby={basisError ? `${id}-basis-error` : undefined}
        aria-invalid={basisError ? true : undefined}
      >
        <legend>Legal basis</legend>
        {LEGAL_BASES.map((basis) => (
          <label key={basis} className="check">
            <input type="radio" name="legalBasis" value={basis} /> {basis}
          </label>
        ))}
        {basisError && (
          <span id={`${id}-basis-error`} className="field-error">
            {basisError}
          </span>
        )}
      </fieldset>
      <label className="check">
        <input
          type="checkbox"
          name="attested"
          aria-invalid={attestError ? true : undefined}
          aria-describedby={attestError ? `${id}-attest-error` : undefined}
        />{" "}
        I confirm this contact gave consent to receive marketing email, on the legal basis above.
      </label>
      {attestError && (
        <span id={`${id}-attest-error`} className="field-error">
          {attestError}
        </span>
      )}
      <DialogActions submit="Confirm subscription" pending="Subscribing…" onCancel={close} />
    </form>
  );
}

/** Spec 4.9 in the dashboard: the manual subscribe dialog, or plain unsubscribe (no confirmation). */
export function SubscriptionControls({
  subscribe,
  unsubscribe: unsubscribeAction,
  status,
  subscribed,
  hasComplaint,
}: SubscriptionControlsProps) {
  const [notice, setNotice] = useState<FormState>({});
  const [, unsubscribe] = useActionState<FormState>(async (prev) => {
    const result = await unsubscribeAction(prev);
    setNotice(result);
    return result;
  }, {});
  const headingId = useId();
  return (
    <section className="card stack" aria-labelledby={headingId}>
      <div className="row">
        <h2 id={headingId}>Email subscription</h2>
        <EmailStatusBadge status={status} />
      </div>
      <StatusMessage state={notice} />
      {subscribed ? (
        <form action={unsubscribe}>
          <SubmitButton className="secondary" pendingLabel="Unsubscribing…">
            Unsubscribe
          </SubmitButton>
        </form>
      ) : (
        <Dialog label="Subscribe…" title="Subscribe this contact">
          {(close) => (
            <ManualSubscribeForm
              subscribe={subscribe}
              hasComplaint={hasComplaint}
              close={close}
              onDone={(success) => setNotice({ success })}
            />
          )}
        </Dialog>
      )}
    </section>
  );
}
