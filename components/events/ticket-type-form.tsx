"use client";

import { useActionState } from "react";
import type { FormState } from "@/lib/http/form-state";
import { Check, Field, FormMessage, SubmitButton } from "@/components/form-controls";

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

/**
 * A ticket type's form on the event page (docs/decisions.md, "Ticket types"): add one (no
 * `ticketTypeId`) or change one. Sale times are in the event's zone; a hidden type needs its access
 * code, which visitors type (any case) or bring as `?code=` on the RSVP link.
 */
export function TicketTypeForm({
  action,
  ticketTypeId,
  initial,
  submitLabel,
}: {
  action: Action;
  ticketTypeId?: string;
  initial: FormState;
  submitLabel: string;
}) {
  const [state, formAction] = useActionState<FormState, FormData>(action, initial);
  const v = state.values ?? {};
  return (
    <form action={formAction} className="stack" noValidate aria-label={submitLabel}>
      <FormMessage state={state} />
      {ticketTypeId && <input type="hidden" name="ticketTypeId" value={ticketTypeId} />}
      <div className="row">
        <Field label="Name" name="name" state={state} required maxLength={200} />
        <Field
          label="Capacity"
          name="capacity"
          type="number"
          min={1}
          state={state}
          hint="Empty: only the event's cap."
        />
        <Field
          label="Price (cents)"
          name="price_cents"
          type="number"
          min={0}
          state={state}
          hint="0 is free."
        />
        <Field label="Order" name="sort_order" type="number" state={state} />
      </div>
      <Field label="Description" name="description" state={state} maxLength={2000} />
      <div className="row">
        <Field label="On sale from" name="sales_start" type="datetime-local" state={state} />
        <Field label="On sale until" name="sales_end" type="datetime-local" state={state} />
      </div>
      <div className="row">
        <Check
          name="is_hidden"
          label="Hidden (only with the access code)"
          defaultChecked={v.is_hidden === "on"}
        />
        <Field label="Access code" name="access_code" state={state} maxLength={100} />
        <Field label="Code use limit" name="access_code_limit" type="number" min={1} state={state} />
      </div>
      <SubmitButton>{submitLabel}</SubmitButton>
    </form>
  );
}
