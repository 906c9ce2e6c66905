"use client";

import { useActionState } from "react";
import { Field, FormMessage, SubmitButton } from "@/components/form-controls";
import type { FormState } from "@/lib/http/form-state";
import type { SegmentFormValues } from "@/lib/segments/segment-form";

type Option = { id: string; name: string };
export interface BuilderOptions {
  tags: Option[];
  sources: string[];
  forms: Option[];
  events: Option[];
  products: Option[];
}

const CONSENT = [
  ["", "Any"],
  ["subscribed", "Subscribed"],
  ["marketing_eligible", "May get marketing email"],
  ["unsubscribed", "Unsubscribed"],
  ["not_opted_in", "Not opted in"],
] as const;
const SUPPRESSION = [
  ["", "Any"],
  ["none", "No suppression"],
  ["any", "Any suppression"],
  ["bounce", "Bounced"],
  ["complaint", "Complained"],
  ["unsubscribe", "Unsubscribed"],
  ["manual", "Blocked by an admin"],
] as const;
const ENGAGEMENT = [
  ["", "No condition"],
  ["delivered", "Delivered"],
  ["opened", "Opened"],
  ["clicked", "Clicked a link"],
  ["bounced", "Bounced"],
  ["complained", "Complained"],
  ["unsubscribed", "Unsubscribed"],
] as const;

/**
 * The segment builder (docs/decisions.md, "Segments"): one optional field set per condition,
 * joined by "all" or "any"; nested groups and negations in the JSON field. A plain form: it
 * works without JavaScript, one column, every control labelled.
 */
export function SegmentBuilder({
  action,
  options,
  initial,
  submitLabel,
}: {
  action: (prev: FormState, form: FormData) => Promise<FormState>;
  options: BuilderOptions;
  initial: { name?: string; values: SegmentFormValues };
  submitLabel: string;
}) {
  const [state, formAction] = useActionState<FormState, FormData>(action, {});
  const v = initial.values;
  const one = (key: string) => {
    const value = v[key];
    return Array.isArray(value) ? value[0] : (value ?? "");
  };
  const has = (key: string, id: string) => [v[key] ?? []].flat().includes(id);
  const select = (name: string, label: string, choices: readonly (readonly [string, string])[]) => (
    <div className="field">
      <label htmlFor={`seg-${name}`}>{label}</label>
      <select id={`seg-${name}`} name={name} defaultValue={one(name)}>
        {choices.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
  const idChoices = (list: Option[], anyLabel: string) =>
    [["", "No condition"], ["any", anyLabel], ...list.map((o) => [o.id, o.name])] as [string, string][];
  const days = (name: string, label: string) => (
    <Field
      label={label}
      name={name}
      type="number"
      min={1}
      max={36500}
      inputMode="numeric"
      defaultValue={one(name)}
    />
  );

  return (
    <form action={formAction} className="stack" noValidate aria-describedby="segment-form-message">
      <FormMessage state={state} id="segment-form-message" />
      <Field label="Name" name="name" state={state} required maxLength={100} defaultValue={initial.name} />
      <fieldset>
        <legend>Contacts who match</legend>
        <label className="check">
          <input type="radio" name="op" value="and" defaultChecked={one("op") !== "or"} /> all of the
          conditions
        </label>
        <label className="check">
          <input type="radio" name="op" value="or" defaultChecked={one("op") === "or"} /> any of the
          conditions
        </label>
      </fieldset>
      {options.tags.length > 0 && (
        <fieldset>
          <legend>Tags</legend>
          {options.tags.map((t) => (
            <label key={t.id} className="check">
              <input type="checkbox" name="tagIds" value={t.id} defaultChecked={has("tagIds", t.id)} />{" "}
              {t.name}
            </label>
          ))}
          <div className="row">
            <label className="check">
              <input type="radio" name="tagMode" value="any" defaultChecked={one("tagMode") !== "all"} /> any
              of them
            </label>
            <label className="check">
              <input type="radio" name="tagMode" value="all" defaultChecked={one("tagMode") === "all"} /> all
              of them
            </label>
          </div>
          <fieldset>
            <legend>Without any of these tags</legend>
            {options.tags.map((t) => (
              <label key={t.id} className="check">
                <input
                  type="checkbox"
                  name="excludeTagIds"
                  value={t.id}
                  defaultChecked={has("excludeTagIds", t.id)}
                />{" "}
                {t.name}
              </label>
            ))}
          </fieldset>
        </fieldset>
      )}
      {options.sources.length > 0 && (
        <fieldset>
          <legend>Source is one of</legend>
          {options.sources.map((s) => (
            <label key={s} className="check">
              <input type="checkbox" name="sources" value={s} defaultChecked={has("sources", s)} /> {s}
            </label>
          ))}
        </fieldset>
      )}
      {select("consent", "Consent", CONSENT)}
      {select("suppression", "Suppression", SUPPRESSION)}
      {days("createdWithinDays", "Created in the last … days")}
      <fieldset>
        <legend>Form submitted</legend>
        {select("formId", "Form", idChoices(options.forms, "Any form"))}
        {days("formWithinDays", "In the last … days")}
      </fieldset>
      {select("eventId", "Registered for event", idChoices(options.events, "Any event"))}
      {select("attendedEventId", "Attended event (checked in)", idChoices(options.events, "Any event"))}
      {select(
        "noShowEventId",
        "Did not show up (registered, event over, not checked in)",
        idChoices(options.events, "Any past event"),
      )}
      <fieldset>
        <legend>Purchased</legend>
        {select("productId", "Product", idChoices(options.products, "Any product"))}
        <Field
          label="Amount at least"
          name="minAmount"
          type="number"
          min={0}
          step="0.01"
          defaultValue={one("minAmount")}
        />
        {days("purchaseWithinDays", "In the last … days")}
      </fieldset>
      <fieldset>
        <legend>Email engagement</legend>
        {select("engagement", "An email to the contact was", ENGAGEMENT)}
        {days("engagementWithinDays", "In the last … days")}
      </fieldset>
      <details open={Boolean(one("filterJson"))}>
        <summary>Advanced: the filter as JSON (nested groups, negation)</summary>
        <div className="field">
          <label htmlFor="seg-filterJson">Filter JSON (when filled, it replaces the fields above)</label>
          <textarea
            id="seg-filterJson"
            name="filterJson"
            rows={10}
            defaultValue={one("filterJson")}
            aria-invalid={state.errors?.filterJson ? true : undefined}
            aria-describedby={state.errors?.filterJson ? "seg-filterJson-error" : undefined}
          />
          {state.errors?.filterJson && (
            <span id="seg-filterJson-error" className="field-error">
              {state.errors.filterJson}
            </span>
          )}
        </div>
      </details>
      <SubmitButton pendingLabel="Saving…">{submitLabel}</SubmitButton>
    </form>
  );
}
