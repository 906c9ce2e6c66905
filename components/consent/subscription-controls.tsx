"use client";

import { useActionState, useId, useState } from "react";
import { manualSubscribeAction, unsubscribeAction } from "@/app/(dashboard)/consent/actions";
import { EmailStatusBadge } from "@/components/email-status-badge";
import { SubmitButton } from "@/components/form-controls";
import { LEGAL_BASES } from "@/lib/consent/consent-rules";
import type { EmailStatus } from "@/lib/consent/email-status";
import type { FormState } from "@/lib/http/form-state";
import { Dialog } from "@/components/ui/dialog";
import { StatusMessage } from "@/components/ui/status-message";

export interface SubscriptionControlsProps {
  contactId: string;
  status: EmailStatus;
  /** is_subscribed true and unsubscribed_at null */
  subscribed: boolean;
  hasComplaint: boolean;
}

function ManualSubscribeForm({
  contactId,
  hasComplaint,
  close,
  onDone,
}: {
  contactId: string;
  hasComplaint: boolean;
  close: () => void;
  onDone: (message: string) => void;
}) {
  const [state, action] = useActionState<FormState, FormData>(async (prev, form) => {
    const result = await manualSubscribeAction(contactId, prev, form);
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
      <div className="row">
        <SubmitButton pendingLabel="Subscribing…">Confirm subscription</SubmitButton>
        <button type="button" className="secondary" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Spec 4.9 in the dashboard: the manual subscribe dialog, or plain unsubscribe (no confirmation). */
export function SubscriptionControls({
  contactId,
  status,
  subscribed,
  hasComplaint,
}: SubscriptionControlsProps) {
  const [notice, setNotice] = useState<FormState>({});
  const [, unsubscribe] = useActionState<FormState>(async (prev) => {
    const result = await unsubscribeAction(contactId, prev);
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
              contactId={contactId}
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
