"use client";

import { useActionState, useId } from "react";
import type { FormState } from "@/lib/http/form-state";
import { SubmitButton } from "@/components/form-controls";

/** The outcome of one of several forms on the page, announced when it appears. */
function Outcome({ state }: { state: FormState }) {
  const id = useId();
  return (
    <div id={id} role="status" aria-live="polite">
      {state.message && <div className="alert error">{state.message}</div>}
      {state.success && <div className="alert success">{state.success}</div>}
    </div>
  );
}

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

/** The auto_subscribe_attendees toggle (spec 2.9). */
export function AutoSubscribeForm({ action, enabled }: { action: Action; enabled: boolean }) {
  const [state, formAction] = useActionState<FormState, FormData>(action, {});
  return (
    <form action={formAction} className="stack">
      <Outcome state={state} />
      <label className="check">
        <input
          type="checkbox"
          name="auto_subscribe_attendees"
          defaultChecked={enabled}
          aria-describedby="auto-hint"
        />
        Subscribe new Eventbrite attendees to marketing email
      </label>
      <span id="auto-hint" className="hint">
        Applies to registrations arriving in real time, never to imports, and never to an address that
        reported spam.
      </span>
      <SubmitButton className="secondary">Save</SubmitButton>
    </form>
  );
}

/** Manual re-sync of events, ticket classes and attendees. */
export function SyncForm({ action }: { action: (prev: FormState) => Promise<FormState> }) {
  const [state, formAction] = useActionState<FormState>(action, {});
  return (
    <form action={formAction} className="stack">
      <Outcome state={state} />
      <SubmitButton pendingLabel="Syncing…" className="secondary">
        Sync now
      </SubmitButton>
    </form>
  );
}
