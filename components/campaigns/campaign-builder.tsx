"use client";

import { useActionState, useEffect, useId, useRef, useState } from "react";
import { FormMessage } from "@/components/form-controls";
import type { FormState } from "@/lib/http/form-state";
import {
  draftFromStep,
  goalsFromTags,
  newDraft,
  STEP_TYPES,
  STEP_TYPE_LABEL,
  stepFromDraft,
  tagsFromGoals,
  WEEKDAY_NAMES,
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

/**
 * The campaign builder (docs/decisions.md, "Campaigns dashboard"): the steps as a vertical flow,
 * a branch's yes and no paths side by side (stacked on a phone), every control a labelled
 * button, input or select in reading order. The list is sent as JSON; the server checks it with
 * the backend's validation and answers each refusal by the step's position, shown beside it.
 */
export function CampaignBuilder({
  action,
  initial,
  tags,
  topics,
  segments,
  canPublish = true,
}: {
  action: (prev: BuilderState, form: FormData) => Promise<BuilderState>;
  initial: { name: string; steps: unknown[]; goals: unknown[]; allow_reenrollment: boolean };
  tags: Option[];
  topics: Option[];
  segments: Option[];
  canPublish?: boolean;
}) {
  const uid = useId();
  const [state, formAction, pending] = useActionState<BuilderState, FormData>(action, {});
  const [name, setName] = useState(initial.name);
  const [steps, setSteps] = useState<StepDraft[]>(() =>
    initial.steps.map((s, i) => draftFromStep(s as Record<string, unknown>, i)),
  );
  const [goalTags, setGoalTags] = useState<string[]>(() => tagsFromGoals(initial.goals));
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
      <input type="hidden" name="steps" value={JSON.stringify(steps.map(stepFromDraft))} />
      <input type="hidden" name="goals" value={JSON.stringify(goalsFromTags(goalTags))} />

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
              tags={tags}
              topics={topics}
              segments={segments}
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
        <legend>Goal: the enrollment completes at once when the contact gets one of these tags</legend>
        {tags.length === 0 && (
          <p className="hint">No tags yet: create one on a contact to use it as a goal.</p>
        )}
        {tags.map((t) => (
          <label key={t.id} className="check">
            <input
              type="checkbox"
              checked={goalTags.includes(t.id)}
              onChange={(e) =>
                setGoalTags((all) => (e.target.checked ? [...all, t.id] : all.filter((id) => id !== t.id)))
              }
            />
            {t.name}
          </label>
        ))}
        {goalErrors.length > 0 && (
          <span id={`${uid}-goal-error`} className="field-error">
            {goalErrors.join(" ")}
          </span>
        )}
      </fieldset>

      <label className="check">
        <input
          type="checkbox"
          name="allow_reenrollment"
          checked={reenroll}
          onChange={(e) => setReenroll(e.target.checked)}
        />
        A contact may be enrolled again once their last enrollment has ended
      </label>

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
  tags,
  topics,
  segments,
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
  tags: Option[];
  topics: Option[];
  segments: Option[];
  error?: string;
  onChange: (patch: Partial<StepDraft>) => void;
  onMove: (by: -1 | 1, control: "up" | "down") => void;
  onRemove: () => void;
}) {
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
          </div>
          {step.waitMode === "duration" ? (
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
            ]}
          />
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
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
