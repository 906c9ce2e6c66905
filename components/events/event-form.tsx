"use client";

import { useActionState } from "react";
import type { FormState } from "@/lib/http/form-state";
import { Check, Field, FormMessage, SubmitButton } from "@/components/form-controls";
import { RichTextEditor } from "./rich-text-editor";

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

function WebsiteFields({ state }: { state: FormState }) {
  const v = state.values ?? {};
  return (
    <fieldset className="stack">
      <legend>Public listing</legend>
      <Check
        name="is_published"
        label="Published (shown on the RSVP page and the public events API)"
        defaultChecked={v.is_published === "on"}
      />
      <Field
        label="Website title"
        name="website_title"
        state={state}
        hint="Optional; the event name is used when empty."
      />
      <RichTextEditor
        label="Website description"
        name="website_description"
        defaultValue={v.website_description}
        hint="Optional; the description is used when empty."
        error={state.errors?.website_description}
      />
    </fieldset>
  );
}

/**
 * The event form (spec 2.7). A manual event: every field, times in the event's zone. A
 * ticketing-linked event (`linked`): only the publish toggle and the website texts, since
 * Eventbrite owns the rest.
 */
export function EventForm({
  action,
  initial,
  timeZones,
  linked = false,
  submitLabel,
}: {
  action: Action;
  initial: FormState;
  timeZones: string[];
  linked?: boolean;
  submitLabel: string;
}) {
  const [state, formAction] = useActionState<FormState, FormData>(action, initial);
  const v = state.values ?? {};
  const shown =
    state.errors && !state.message ? { ...state, message: "Check the highlighted fields." } : state;
  return (
    <form action={formAction} className="stack card" noValidate aria-describedby="form-message">
      <FormMessage state={shown} />
      {linked ? (
        <input type="hidden" name="linked" value="1" />
      ) : (
        <>
          <Field label="Name" name="name" state={state} required maxLength={200} />
          <RichTextEditor
            label="Description"
            name="description"
            defaultValue={v.description}
            error={state.errors?.description}
          />
          <div className="row">
            <Field label="Location" name="location" state={state} hint="An address or venue." />
            <Check name="online" label="Online event" defaultChecked={v.online === "on"} />
          </div>
          <div className="row">
            <Field label="Starts" name="start" type="datetime-local" state={state} required />
            <Field label="Ends" name="end" type="datetime-local" state={state} required />
            <div className="field">
              <label htmlFor="event-timezone">Time zone</label>
              <select
                id="event-timezone"
                name="timezone"
                defaultValue={v.timezone ?? "UTC"}
                aria-describedby={state.errors?.timezone ? "tz-hint tz-error" : "tz-hint"}
                aria-invalid={state.errors?.timezone ? true : undefined}
              >
                {timeZones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone}
                  </option>
                ))}
              </select>
              <span id="tz-hint" className="hint">
                Start and end are times in this zone.
              </span>
              {state.errors?.timezone && (
                <span id="tz-error" className="field-error">
                  {state.errors.timezone}
                </span>
              )}
            </div>
          </div>
        </>
      )}
      <Field
        label="Capacity"
        name="capacity"
        type="number"
        state={state}
        hint="Seats available for RSVPs; leave empty for unlimited."
      />
      {!linked && (
        <fieldset className="stack">
          <legend>Waitlist</legend>
          <Check
            name="waitlist_enabled"
            label="When the event is full, RSVPs join a waitlist"
            defaultChecked={v.waitlist_enabled === "on"}
          />
          <Field
            label="Offer lasts (hours)"
            name="offer_hours"
            type="number"
            min={1}
            max={720}
            state={state}
            hint="When a seat frees, the first in line is emailed a link to claim it, valid this long."
          />
        </fieldset>
      )}
      <WebsiteFields state={state} />
      <SubmitButton>{submitLabel}</SubmitButton>
    </form>
  );
}
