"use client";

import { useStepUpAction } from "@/components/two-factor/step-up-prompt";
import type { EndpointFormState } from "@/lib/webhooks/outbound/schemas";
import { Field, FormMessage, SubmitButton } from "@/components/form-controls";

type Action = (prev: EndpointFormState, form: FormData) => Promise<EndpointFormState>;

/**
 * Adds or edits an outbound webhook endpoint: its URL, a description, the events it receives
 * and whether it is on. After adding, the signing secret is shown once.
 */
export function EndpointForm({
  action,
  eventTypes,
  initial,
  submitLabel,
}: {
  action: Action;
  eventTypes: readonly string[];
  initial?: { url: string; description: string | null; eventTypes: string[]; enabled: boolean };
  submitLabel: string;
}) {
  const [state, formAction, stepUp] = useStepUpAction<EndpointFormState>(action, {});
  const chosen = new Set(initial?.eventTypes ?? []);
  return (
    <>
      <form action={formAction} className="stack card" noValidate aria-describedby="form-message">
        <FormMessage state={state} />
        {state.secret && <SigningSecret secret={state.secret} />}
        <Field
          label="Endpoint URL"
          name="url"
          type="url"
          state={state}
          defaultValue={state.values?.url ?? initial?.url ?? ""}
          hint="A public https address. Events are POSTed there as JSON, signed per Standard Webhooks."
          required
        />
        <Field
          label="Description (optional)"
          name="description"
          state={state}
          defaultValue={state.values?.description ?? initial?.description ?? ""}
        />
        <fieldset aria-describedby={state.errors?.eventTypes ? "event-types-error" : undefined}>
          <legend>Events to send</legend>
          <div className="row" style={{ flexWrap: "wrap", gap: "0.25rem 1rem" }}>
            {eventTypes.map((type) => (
              <label key={type} className="row" style={{ gap: "0.25rem" }}>
                <input type="checkbox" name="eventTypes" value={type} defaultChecked={chosen.has(type)} />
                <code>{type}</code>
              </label>
            ))}
          </div>
          {state.errors?.eventTypes && (
            <span id="event-types-error" className="field-error">
              {state.errors.eventTypes}
            </span>
          )}
        </fieldset>
        <label className="row" style={{ gap: "0.5rem" }}>
          <input type="checkbox" name="enabled" defaultChecked={initial?.enabled ?? true} /> Enabled
        </label>
        <SubmitButton pendingLabel="Saving…">{submitLabel}</SubmitButton>
      </form>
      {stepUp}
    </>
  );
}

/** A secret shown once: selected on focus for copying. */
export function SigningSecret({ secret }: { secret: string }) {
  return (
    <label>
      Signing secret (shown once)
      <input readOnly value={secret} data-testid="webhook-secret" onFocus={(e) => e.currentTarget.select()} />
    </label>
  );
}

/** A one-button form that runs one action on an endpoint or a delivery and says how it went. */
export function InlineAction({
  action,
  fields,
  label,
}: {
  action: Action;
  fields: Record<string, string>;
  label: string;
}) {
  const [state, formAction, stepUp] = useStepUpAction<EndpointFormState>(action, {});
  return (
    <>
      <form action={formAction} className="stack">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <SubmitButton pendingLabel="Working…">{label}</SubmitButton>
        {state.secret && <SigningSecret secret={state.secret} />}
        {(state.success || state.message) && (
          <span role={state.message ? "alert" : "status"} className={state.message ? "field-error" : "hint"}>
            {state.message ?? state.success}
          </span>
        )}
      </form>
      {stepUp}
    </>
  );
}
