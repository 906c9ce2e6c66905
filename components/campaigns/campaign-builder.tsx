"use client";

import { useActionState, useEffect, useId, useRef, useState } from "react";
import { FormMessage } from "@/components/form-controls";
import { LANGUAGE_NAMES } from "@/lib/i18n/language-names";
import type { FormState } from "@/lib/http/form-state";
import { FIELD_LABELS, PERSON_FIELDS } from "@/lib/contacts/contact-row";
import {
  choicesFromGoals,
  draftFromStep,
  GOAL_KINDS,
  goalsFromChoices,
  newDraft,
  STEP_TYPES,
  STEP_TYPE_LABEL,
  stepFromDraft,
  WEEKDAY_NAMES,
  type FieldOption,
  type GoalChoices,
  type StepDraft,
  type StepType,
} from "./step-drafts";

export type BuilderState = FormState & {
  stepErrors?: Record<number, string>;
  goalErrors?: Record<number, string>;
};

interface Option {
  id: string;
  name: string;
}

/** What the selects of the builder offer, all of the member's workspace (lib/campaigns/dashboard.ts). */
export interface BuilderOptions {
  tags: Option[];
  topics: Option[];
  segments: Option[];
  products: Option[];
  events: Option[];
  forms: Option[];
  members: Option[];
  endpoints: Option[];
  fields: FieldOption[];
}

/**
 * The campaign builder (docs/decisions.md, "Campaigns dashboard"): the steps as a vertical flow,
 * a branch's yes and no paths side by side (stacked on a phone), every control a labelled
 * button, input or select in reading order. The list is sent as JSON; the server checks it with
 * the backend's validation and answers each refusal by the step's position, shown beside it.
 */
export function CampaignBuilder({
  action,
  initial,
  canPublish = true,
  live = false,
  ...options
}: {
  action: (prev: BuilderState, form: FormData) => Promise<BuilderState>;
  initial: {
    name: string;
    steps: unknown[];
    goals: unknown[];
    allow_reenrollment: boolean;
    enroll_segment_id?: string | null;
  };
  canPublish?: boolean;
  /** published already: publishing may move the enrollments inside to the new version */
  live?: boolean;
} & BuilderOptions) {
  const { tags, segments, products, forms, fields } = options;
  const uid = useId();
  const [state, formAction, pending] = useActionState<BuilderState, FormData>(action, {});
  const [name, setName] = useState(initial.name);
  const [steps, setSteps] = useState<StepDraft[]>(() =>
    initial.steps.map((s, i) => draftFromStep(s as Record<string, unknown>, i)),
  );
  const [goals, setGoals] = useState<GoalChoices>(() => choicesFromGoals(initial.goals));
  const [enrollSegment, setEnrollSegment] = useState(initial.enroll_segment_id ?? "");
  const [moveEnrollments, setMoveEnrollments] = useState(false);
  const [reenroll, setReenroll] = useState(initial.allow_reenrollment);
  const [adding, setAdding] = useState<StepType>("send_email");
  // the control to focus once the list has re-rendered (a moved step's button, a new step)
  const focusAfter = useRef<string | null>(null);
  const setFocusId = (id: string) => {
    focusAfter.current = id;
  };
  // the keys of the steps as they were sent: an error names a position in that list
  const [sentKeys, setSentKeys] = useState<string[]>([]);

  useEffect(() => {
    if (!focusAfter.current) return;
    document.getElementById(focusAfter.current)?.focus();
    focusAfter.current = null;
  });

  const errorOf = (key: string) => {
    const at = sentKeys.indexOf(key);
    return at >= 0 ? state.stepErrors?.[at] : undefined;
  };
  const update = (key: string, patch: Partial<StepDraft>) =>
    setSteps((all) => all.map((s) => (s.key === key ? { ...s, ...patch } : s)));
  const move = (index: number, by: -1 | 1, control: "up" | "down") => {
    const to = index + by;
    if (to < 0 || to >= steps.length) return;
    const next = [...steps];
    [next[index], next[to]] = [next[to], next[index]];
    setSteps(next);
    // keep the focus on the button pressed, or on its twin when the step reached an end
    const edge = (control === "up" && to === 0) || (control === "down" && to === steps.length - 1);
    setFocusId(`${uid}-${steps[index].key}-${edge ? (control === "up" ? "down" : "up") : control}`);
  };
  const remove = (index: number) => {
    const next = steps.filter((_, i) => i !== index);
    setSteps(next);
    setFocusId(next.length ? `${uid}-${next[Math.max(0, index - 1)].key}-heading` : `${uid}-add-type`);
  };
  const add = () => {
    const draft = newDraft(adding, steps);
    setSteps([...steps, draft]);
    setFocusId(`${uid}-${draft.key}-heading`);
  };

  const sendSteps = steps.filter((s) => s.type === "send_email");
  const goalErrors = Object.values(state.goalErrors ?? {});

  return (
    <form
      action={formAction}
      className="stack campaign-builder"
      aria-describedby={`${uid}-message`}
      onSubmit={() => {
        setSentKeys(steps.map((s) => s.key));
      }}
    >
      <FormMessage state={state} id={`${uid}-message`} />
      <div className="field">
        <label htmlFor={`${uid}-name`}>Campaign name</label>
        <input
          id={`${uid}-name`}
          name="name"
          value={name}
          maxLength={200}
          required
          onChange={(e) => setName(e.target.value)}
          aria-invalid={state.errors?.name ? true : undefined}
          aria-describedby={state.errors?.name ? `${uid}-name-error` : undefined}
        />
        {state.errors?.name && (
          <span id={`${uid}-name-error`} className="field-error">
            {state.errors.name}
          </span>
        )}
      </div>
      <input type="hidden" name="steps" value={JSON.stringify(steps.map((s) => stepFromDraft(s, fields)))} />
      <input type="hidden" name="goals" value={JSON.stringify(goalsFromChoices(goals))} />

      <section aria-labelledby={`${uid}-steps-heading`} className="stack">
        <h2 id={`${uid}-steps-heading`}>Steps</h2>
        {steps.length === 0 && <p className="hint">No steps yet: add the first one below.</p>}
        <ol className="campaign-flow" aria-label="Campaign steps">
          {steps.map((step, index) => (
            <StepCard
              key={step.key}
              uid={uid}
              step={step}
              index={index}
              count={steps.length}
              later={steps.slice(index + 1).map((s) => s.id)}
              sendSteps={sendSteps.filter((s) => steps.indexOf(s) < index).map((s) => s.id)}
              options={options}
              error={errorOf(step.key)}
              onChange={(patch) => update(step.key, patch)}
              onMove={(by, control) => move(index, by, control)}
              onRemove={() => remove(index)}
            />
          ))}
        </ol>
        <div className="row" style={{ alignItems: "flex-end" }}>
          <div className="field">
            <label htmlFor={`${uid}-add-type`}>New step</label>
            <select
              id={`${uid}-add-type`}
              value={adding}
              onChange={(e) => setAdding(e.target.value as StepType)}
            >
              {STEP_TYPES.map((t) => (
                <option key={t} value={t}>
                  {STEP_TYPE_LABEL[t]}
                </option>
              ))}
            </select>
          </div>
          <button type="button" className="secondary" onClick={add}>
            Add step
          </button>
        </div>
      </section>

      <fieldset className="stack" aria-describedby={goalErrors.length ? `${uid}-goal-error` : undefined}>
        <legend>Goal: the enrollment completes at once, wherever it stands, when the contact…</legend>
        {GOAL_KINDS.map((kind) => {
          const choices = {
            tag_added: tags,
            purchased: products,
            form_submitted: forms,
            segment_entered: segments,
          }[kind.type];
          return (
            <fieldset key={kind.type} className="stack">
              <legend>…{kind.label}</legend>
              {choices.length === 0 && <p className="hint">None in this workspace yet.</p>}
              {choices.map((o) => (
                <label key={o.id} className="check">
                  <input
                    type="checkbox"
                    checked={goals[kind.type].includes(o.id)}
                    onChange={(e) =>
                      setGoals((all) => ({
                        ...all,
                        [kind.type]: e.target.checked
                          ? [...all[kind.type], o.id]
                          : all[kind.type].filter((id) => id !== o.id),
                      }))
                    }
                  />
                  {o.name}
                </label>
              ))}
            </fieldset>
          );
        })}
        {goalErrors.length > 0 && (
          <span id={`${uid}-goal-error`} className="field-error">
            {goalErrors.join(" ")}
          </span>
        )}
      </fieldset>

      <Select
        id={`${uid}-enroll-segment`}
        name="enroll_segment_id"
        label="Enroll contacts who enter a segment"
        value={enrollSegment}
        onChange={setEnrollSegment}
        options={[{ value: "", label: "No segment" }, ...segments.map(opt)]}
        hint="Checked every minute. Contacts already in it are not enrolled; use “Enroll everyone in a segment now” for them."
      />

      <label className="check">
        <input
          type="checkbox"
          name="allow_reenrollment"
          checked={reenroll}
          onChange={(e) => setReenroll(e.target.checked)}
        />
        A contact may be enrolled again once their last enrollment has ended
      </label>

      {live && canPublish && (
        <label className="check">
          <input
            type="checkbox"
            name="move_enrollments"
            checked={moveEnrollments}
            onChange={(e) => setMoveEnrollments(e.target.checked)}
          />
          On publishing, move the contacts already enrolled to the new version (those not started yet, or
          waiting on a wait step the new version keeps by name; the others stay on their version)
        </label>
      )}

      <div className="row">
        <button type="submit" name="intent" value="save" className="secondary" disabled={pending}>
          {pending ? "Saving…" : "Save draft"}
        </button>
        {canPublish && (
          <button type="submit" name="intent" value="publish" disabled={pending}>
            Publish
          </button>
        )}
      </div>
    </form>
  );
}

function StepCard({
  uid,
  step,
  index,
  count,
  later,
  sendSteps,
  options,
  error,
  onChange,
  onMove,
  onRemove,
}: {
  uid: string;
  step: StepDraft;
  index: number;
  count: number;
  later: string[];
  sendSteps: string[];
  options: BuilderOptions;
  error?: string;
  onChange: (patch: Partial<StepDraft>) => void;
  onMove: (by: -1 | 1, control: "up" | "down") => void;
  onRemove: () => void;
}) {
  const { tags, topics, segments, products, events, members, endpoints, fields } = options;
  const base = `${uid}-${step.key}`;
  const f = (name: string) => `${base}-${name}`;
  const title = `Step ${index + 1}: ${STEP_TYPE_LABEL[step.type]}`;
  return (
    <li
      className={`card stack campaign-step${error ? " has-error" : ""}`}
      aria-labelledby={f("heading")}
      aria-describedby={error ? f("error") : undefined}
      data-testid={`campaign-step-${index + 1}`}
    >
      <div className="topbar">
        <h3 id={f("heading")} tabIndex={-1} style={{ margin: 0 }}>
          {title}
        </h3>
        <div className="row">
          <button
            type="button"
            id={f("up")}
            className="secondary"
            onClick={() => onMove(-1, "up")}
            disabled={index === 0}
            aria-label={`Move step ${index + 1} up`}
          >
            ↑
          </button>
          <button
            type="button"
            id={f("down")}
            className="secondary"
            onClick={() => onMove(1, "down")}
            disabled={index === count - 1}
            aria-label={`Move step ${index + 1} down`}
          >
            ↓
          </button>
          <button type="button" className="danger" onClick={onRemove} aria-label={`Remove step ${index + 1}`}>
            Remove
          </button>
        </div>
      </div>
      {error && (
        <p id={f("error")} className="field-error" role="alert">
          {error}
        </p>
      )}
      <Input
        id={f("id")}
        label="Step name"
        value={step.id}
        onChange={(v) => onChange({ id: v })}
        hint="Lowercase letters, digits, - and _; branches name steps by it."
      />

      {step.type === "send_email" && (
        <>
          <Input
            id={f("subject")}
            label="Subject"
            value={step.subject}
            onChange={(v) => onChange({ subject: v })}
          />
          <div className="field">
            <label htmlFor={f("body")}>Message (Markdown, merge tags such as {"{{first_name}}"})</label>
            <textarea
              id={f("body")}
              rows={6}
              value={step.body}
              onChange={(e) => onChange({ body: e.target.value })}
            />
          </div>
          <details className="stack" open={Object.keys(step.translations).length > 0}>
            <summary>Other languages ({Object.keys(step.translations).length})</summary>
            <p className="hint">
              A contact whose language is one of these gets its subject and message; everyone else gets the
              email above. Leave a language empty to send it the email above.
            </p>
            {LANGUAGE_NAMES.map(({ code, name }) => {
              const t = step.translations[code] ?? { subject: "", body: "" };
              const set = (patch: Partial<typeof t>) =>
                onChange({ translations: { ...step.translations, [code]: { ...t, ...patch } } });
              return (
                <fieldset key={code} className="stack">
                  <legend lang={code}>{name}</legend>
                  <Input
                    id={f(`subject-${code}`)}
                    label={`Subject in ${name}`}
                    value={t.subject}
                    onChange={(v) => set({ subject: v })}
                  />
                  <div className="field">
                    <label htmlFor={f(`body-${code}`)}>Message in {name}</label>
                    <textarea
                      id={f(`body-${code}`)}
                      rows={4}
                      value={t.body}
                      onChange={(e) => set({ body: e.target.value })}
                    />
                  </div>
                </fieldset>
              );
            })}
          </details>
          <Select
            id={f("topic")}
            label="Topic"
            value={step.topic_id}
            onChange={(v) => onChange({ topic_id: v })}
            options={[{ value: "", label: "No topic (every subscribed contact)" }, ...topics.map(opt)]}
          />
        </>
      )}

      {step.type === "wait" && (
        <fieldset className="stack">
          <legend>Wait</legend>
          <div className="row">
            <label className="check">
              <input
                type="radio"
                name={f("mode")}
                checked={step.waitMode === "duration"}
                onChange={() => onChange({ waitMode: "duration" })}
              />
              For a time
            </label>
            <label className="check">
              <input
                type="radio"
                name={f("mode")}
                checked={step.waitMode === "until"}
                onChange={() => onChange({ waitMode: "until" })}
              />
              Until a day and time
            </label>
            <label className="check">
              <input
                type="radio"
                name={f("mode")}
                checked={step.waitMode === "event"}
                onChange={() => onChange({ waitMode: "event" })}
              />
              Until some hours before an event starts
            </label>
          </div>
          {step.waitMode === "event" ? (
            <div className="row">
              <Input
                id={f("event-hours")}
                label="Hours before the start"
                type="number"
                value={step.eventHours}
                onChange={(v) => onChange({ eventHours: v })}
              />
              <Select
                id={f("event")}
                label="Event"
                value={step.event_id}
                onChange={(v) => onChange({ event_id: v })}
                options={withCurrent(
                  [{ value: "", label: "The event the contact was enrolled for" }, ...events.map(opt)],
                  step.event_id,
                )}
              />
            </div>
          ) : step.waitMode === "duration" ? (
            <div className="row">
              <Input
                id={f("days")}
                label="Days"
                type="number"
                value={step.days}
                onChange={(v) => onChange({ days: v })}
              />
              <Input
                id={f("hours")}
                label="Hours"
                type="number"
                value={step.hours}
                onChange={(v) => onChange({ hours: v })}
              />
              <Input
                id={f("minutes")}
                label="Minutes"
                type="number"
                value={step.minutes}
                onChange={(v) => onChange({ minutes: v })}
              />
            </div>
          ) : (
            <div className="row">
              <Select
                id={f("weekday")}
                label="Day"
                value={step.weekday}
                onChange={(v) => onChange({ weekday: v })}
                options={[
                  { value: "", label: "The next day" },
                  ...WEEKDAY_NAMES.map((d) => ({ value: d, label: d[0].toUpperCase() + d.slice(1) })),
                ]}
              />
              <Input
                id={f("time")}
                label="Time (campaign's zone)"
                type="time"
                value={step.time}
                onChange={(v) => onChange({ time: v })}
              />
            </div>
          )}
        </fieldset>
      )}

      {step.type === "branch" && (
        <>
          <Select
            id={f("cond")}
            label="Condition"
            value={step.condType}
            onChange={(v) => onChange({ condType: v as StepDraft["condType"] })}
            options={[
              { value: "opened", label: "Opened the email of a step" },
              { value: "clicked", label: "Clicked in the email of a step" },
              { value: "has_tag", label: "Has a tag" },
              { value: "in_segment", label: "Is in a segment" },
              { value: "custom_field", label: "A custom field's value" },
              { value: "purchased", label: "Bought a product" },
              { value: "registered", label: "Registered for an event" },
              { value: "attended", label: "Attended an event (checked in)" },
              { value: "no_show", label: "Did not show up (registered for a past event, not checked in)" },
            ]}
          />
          {step.condType === "custom_field" && (
            <div className="row">
              <Select
                id={f("cond-key")}
                label="Custom field"
                value={step.condKey}
                onChange={(v) => onChange({ condKey: v })}
                options={withCurrent(
                  [
                    { value: "", label: "Choose a field" },
                    ...fields.map((x) => ({ value: x.key, label: x.label })),
                  ],
                  step.condKey,
                )}
              />
              <Select
                id={f("cond-op")}
                label="Test"
                value={step.condOp}
                onChange={(v) => onChange({ condOp: v as StepDraft["condOp"] })}
                options={[
                  { value: "eq", label: "Is" },
                  { value: "set", label: "Has a value" },
                  { value: "not_set", label: "Has no value" },
                ]}
              />
              {step.condOp === "eq" && (
                <Input
                  id={f("cond-value")}
                  label="Value"
                  value={step.condValue}
                  onChange={(v) => onChange({ condValue: v })}
                />
              )}
            </div>
          )}
          {step.condType === "purchased" && (
            <Select
              id={f("cond-product")}
              label="Product"
              value={step.condProduct}
              onChange={(v) => onChange({ condProduct: v })}
              options={withCurrent(
                [{ value: "", label: "Any product" }, ...products.map(opt)],
                step.condProduct,
              )}
            />
          )}
          {(step.condType === "registered" ||
            step.condType === "attended" ||
            step.condType === "no_show") && (
            <Select
              id={f("cond-event")}
              label="Event"
              value={step.condEvent}
              onChange={(v) => onChange({ condEvent: v })}
              options={withCurrent(
                [
                  { value: "", label: "The event the contact was enrolled for (else any)" },
                  ...events.map(opt),
                ],
                step.condEvent,
              )}
            />
          )}
          {(step.condType === "opened" || step.condType === "clicked") && (
            <Select
              id={f("cond-step")}
              label="Email step"
              value={step.condStep}
              onChange={(v) => onChange({ condStep: v })}
              options={withCurrent(
                [
                  { value: "", label: "Choose a send step above" },
                  ...sendSteps.map((id) => ({ value: id, label: id })),
                ],
                step.condStep,
              )}
            />
          )}
          {step.condType === "has_tag" && (
            <Select
              id={f("cond-tag")}
              label="Tag"
              value={step.condTag}
              onChange={(v) => onChange({ condTag: v })}
              options={[{ value: "", label: "Choose a tag" }, ...tags.map(opt)]}
            />
          )}
          {step.condType === "in_segment" && (
            <Select
              id={f("cond-segment")}
              label="Segment"
              value={step.condSegment}
              onChange={(v) => onChange({ condSegment: v })}
              options={[{ value: "", label: "Choose a segment" }, ...segments.map(opt)]}
            />
          )}
          <div className="campaign-branches">
            <div className="campaign-path stack" aria-label="Yes path" role="group">
              <strong>Yes</strong>
              <Select
                id={f("then")}
                label="If yes, go to"
                value={step.then}
                onChange={(v) => onChange({ then: v })}
                options={targets(later, step.then)}
              />
            </div>
            <div className="campaign-path stack" aria-label="No path" role="group">
              <strong>No</strong>
              <Select
                id={f("else")}
                label="If no, go to"
                value={step.else}
                onChange={(v) => onChange({ else: v })}
                options={targets(later, step.else)}
              />
            </div>
          </div>
        </>
      )}

      {(step.type === "add_tag" || step.type === "remove_tag") && (
        <Select
          id={f("tag")}
          label={step.type === "add_tag" ? "Tag to add" : "Tag to remove"}
          value={step.tag_id}
          onChange={(v) => onChange({ tag_id: v })}
          options={[{ value: "", label: "Choose a tag" }, ...tags.map(opt)]}
        />
      )}

      {(step.type === "join_topic" || step.type === "leave_topic") && (
        <Select
          id={f("topic")}
          label={step.type === "join_topic" ? "Topic to join" : "Topic to leave"}
          value={step.topic_id}
          onChange={(v) => onChange({ topic_id: v })}
          options={withCurrent([{ value: "", label: "Choose a topic" }, ...topics.map(opt)], step.topic_id)}
          hint={
            step.type === "join_topic"
              ? "Only a subscribed contact joins: a campaign gives no consent. Recorded in the consent ledger."
              : "Leaving the last topic is an unsubscribe. Recorded in the consent ledger."
          }
        />
      )}

      {(step.type === "create_task" || step.type === "notify_member") && (
        <>
          <Input
            id={f("title")}
            label={step.type === "create_task" ? "Task title" : "Notification title"}
            value={step.title}
            onChange={(v) => onChange({ title: v })}
            hint="Merge tags such as {{first_name}} are filled in."
          />
          {step.type === "create_task" ? (
            <Input
              id={f("due")}
              label="Due in days (empty: no date)"
              type="number"
              value={step.due_in_days}
              onChange={(v) => onChange({ due_in_days: v })}
            />
          ) : (
            <div className="field">
              <label htmlFor={f("notify-body")}>Message</label>
              <textarea
                id={f("notify-body")}
                rows={3}
                value={step.notifyBody}
                onChange={(e) => onChange({ notifyBody: e.target.value })}
              />
            </div>
          )}
          <Select
            id={f("member")}
            label={step.type === "create_task" ? "Assign to" : "Notify"}
            value={step.user_id}
            onChange={(v) => onChange({ user_id: v })}
            options={withCurrent(
              [
                { value: "", label: step.type === "create_task" ? "Nobody" : "Every member" },
                ...members.map(opt),
              ],
              step.user_id,
            )}
          />
        </>
      )}

      {step.type === "update_field" && (
        <div className="row">
          <Select
            id={f("field")}
            label="Field"
            value={step.field}
            onChange={(v) => onChange({ field: v })}
            options={withCurrent(
              [
                { value: "", label: "Choose a field" },
                ...PERSON_FIELDS.map((x) => ({ value: x, label: FIELD_LABELS[x] })),
                ...fields.map((x) => ({ value: `custom:${x.key}`, label: `${x.label} (custom)` })),
              ],
              step.field,
            )}
          />
          <Input
            id={f("value")}
            label="New value"
            value={step.value}
            onChange={(v) => onChange({ value: v })}
            hint="An overwritten value is noted on the contact's timeline (spec 4.10)."
          />
        </div>
      )}

      {step.type === "send_webhook" && (
        <div className="row">
          <Select
            id={f("endpoint")}
            label="Endpoint"
            value={step.endpoint_id}
            onChange={(v) => onChange({ endpoint_id: v })}
            options={withCurrent(
              [{ value: "", label: "Every endpoint subscribed to campaign.step" }, ...endpoints.map(opt)],
              step.endpoint_id,
            )}
          />
          <Input
            id={f("label")}
            label="Label (in the payload)"
            value={step.label}
            onChange={(v) => onChange({ label: v })}
          />
        </div>
      )}

      {step.type === "exit" && <p className="hint">The enrollment ends here as exited.</p>}

      {step.type !== "branch" && step.type !== "exit" && (
        <Select
          id={f("next")}
          label="Then go to"
          value={step.next}
          onChange={(v) => onChange({ next: v })}
          options={targets(later, step.next)}
        />
      )}
    </li>
  );
}

const opt = (o: Option) => ({ value: o.id, label: o.name });

/** Where a step may go: the one below it, a step further down, or the end. */
function targets(later: string[], current: string) {
  return withCurrent(
    [
      { value: "", label: "The step below" },
      ...later.map((id) => ({ value: id, label: `Step "${id}"` })),
      { value: "end", label: "The end (completed)" },
    ],
    current,
  );
}

/** A saved value no longer among the choices stays shown, so the refusal beside the step reads true. */
function withCurrent(options: { value: string; label: string }[], current: string) {
  return options.some((o) => o.value === current)
    ? options
    : [...options, { value: current, label: `"${current}" (not a choice here)` }];
}

function Input({
  id,
  label,
  value,
  onChange,
  type = "text",
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  hint?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        min={type === "number" ? 0 : undefined}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      {hint && (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      )}
    </div>
  );
}

function Select({
  id,
  label,
  value,
  onChange,
  options,
  name,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  name?: string;
  hint?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint && (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      )}
    </div>
  );
}
