/**
 * The builder's editing shape of a step (every field a string, as the inputs hold it) and the
 * step format it becomes (docs/api.md, "Campaign steps"; lib/campaigns/steps.ts checks it on the
 * server). Nothing here validates: a wrong value goes to the server as it is and its refusal is
 * shown beside the step.
 */

export const STEP_TYPES = [
  "send_email",
  "wait",
  "branch",
  "add_tag",
  "remove_tag",
  "join_topic",
  "leave_topic",
  "create_task",
  "update_field",
  "send_webhook",
  "notify_member",
  "exit",
] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const STEP_TYPE_LABEL: Record<StepType, string> = {
  send_email: "Send an email",
  wait: "Wait",
  branch: "Branch",
  add_tag: "Add a tag",
  remove_tag: "Remove a tag",
  join_topic: "Join a topic",
  leave_topic: "Leave a topic",
  create_task: "Create a task",
  update_field: "Update a field",
  send_webhook: "Send a webhook",
  notify_member: "Notify a member",
  exit: "Exit",
};

const PREFIX: Record<StepType, string> = {
  send_email: "email",
  wait: "wait",
  branch: "branch",
  add_tag: "tag",
  remove_tag: "untag",
  join_topic: "join",
  leave_topic: "leave",
  create_task: "task",
  update_field: "field",
  send_webhook: "webhook",
  notify_member: "notify",
  exit: "exit",
};

export const CONDITION_TYPES = [
  "opened",
  "clicked",
  "has_tag",
  "in_segment",
  "custom_field",
  "purchased",
  "registered",
  "attended",
  "no_show",
] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

/** A custom field as the builder offers it: its type says how a typed value is sent. */
export interface FieldOption {
  key: string;
  label: string;
  field_type: string;
}

export const WEEKDAY_NAMES = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;

export interface StepDraft {
  /** React's key: stays with the step while it is renamed and moved */
  key: string;
  id: string;
  type: StepType;
  /** "" the step below, "end", or a step's id */
  next: string;
  subject: string;
  body: string;
  /** the email in other languages, by code (lib/i18n/language-names.ts); an empty pair is left out */
  translations: Record<string, { subject: string; body: string }>;
  topic_id: string;
  waitMode: "duration" | "until" | "event";
  days: string;
  hours: string;
  minutes: string;
  weekday: string;
  time: string;
  /** before_event: the hours before the start, and the event ("" the enrollment's) */
  eventHours: string;
  event_id: string;
  condType: ConditionType;
  condStep: string;
  condTag: string;
  condSegment: string;
  /** custom_field: the key, "eq" / "set" / "not_set", the value typed */
  condKey: string;
  condOp: "eq" | "set" | "not_set";
  condValue: string;
  /** purchased: the product ("" any); registered, attended, no_show: the event ("" the enrollment's) */
  condProduct: string;
  condEvent: string;
  then: string;
  else: string;
  tag_id: string;
  /** create_task and notify_member */
  title: string;
  due_in_days: string;
  user_id: string;
  notifyBody: string;
  /** update_field: a person field's name or "custom:<key>", and the value */
  field: string;
  value: string;
  /** send_webhook */
  endpoint_id: string;
  label: string;
}

/** A key for a step added in the browser (the stored steps take their position: the same on the server's render). */
let added = 0;
const freshKey = () => `new-${++added}-${Date.now().toString(36)}`;

const blank = (type: StepType, id: string, key = freshKey()): StepDraft => ({
  key,
  id,
  type,
  next: "",
  subject: "",
  body: "",
  translations: {},
  topic_id: "",
  waitMode: "duration",
  days: "1",
  hours: "",
  minutes: "",
  weekday: "",
  time: "09:00",
  eventHours: "24",
  event_id: "",
  condType: "clicked",
  condStep: "",
  condTag: "",
  condSegment: "",
  condKey: "",
  condOp: "eq",
  condValue: "",
  condProduct: "",
  condEvent: "",
  then: "",
  else: "",
  tag_id: "",
  title: "",
  due_in_days: "",
  user_id: "",
  notifyBody: "",
  field: "",
  value: "",
  endpoint_id: "",
  label: "",
});

/** A new step of the type, named `<type>-<n>` with the first n not taken. */
export function newDraft(type: StepType, steps: { id: string }[]): StepDraft {
  const taken = new Set(steps.map((s) => s.id));
  let n = 1;
  while (taken.has(`${PREFIX[type]}-${n}`)) n++;
  const draft = blank(type, `${PREFIX[type]}-${n}`);
  if (type === "branch") {
    const lastSend = [...steps].reverse().find((s) => (s as StepDraft).type === "send_email");
    if (lastSend) draft.condStep = lastSend.id;
  }
  return draft;
}

const str = (v: unknown) => (v === undefined || v === null ? "" : String(v));

/** A stored step as the builder edits it. */
export function draftFromStep(step: Record<string, unknown>, index: number): StepDraft {
  const type = (STEP_TYPES as readonly string[]).includes(String(step.type))
    ? (step.type as StepType)
    : "exit";
  const d = blank(type, str(step.id) || `step-${index + 1}`, `stored-${index}`);
  d.next = str(step.next);
  if (type === "send_email") {
    const stored = (step.translations ?? {}) as Record<string, Record<string, unknown>>;
    const translations = Object.fromEntries(
      Object.entries(stored).map(([lang, t]) => [lang, { subject: str(t?.subject), body: str(t?.body) }]),
    );
    Object.assign(d, {
      subject: str(step.subject),
      body: str(step.body),
      topic_id: str(step.topic_id),
      translations,
    });
  }
  if (type === "wait") {
    const duration = step.duration as Record<string, unknown> | undefined;
    const until = step.until as Record<string, unknown> | undefined;
    const before = step.before_event as Record<string, unknown> | undefined;
    if (before)
      Object.assign(d, { waitMode: "event", eventHours: str(before.hours), event_id: str(before.event_id) });
    else if (until)
      Object.assign(d, { waitMode: "until", weekday: str(until.weekday), time: str(until.time) });
    else
      Object.assign(d, {
        days: str(duration?.days),
        hours: str(duration?.hours),
        minutes: str(duration?.minutes),
      });
  }
  if (type === "branch") {
    const c = (step.condition ?? {}) as Record<string, unknown>;
    const condType = (CONDITION_TYPES as readonly string[]).includes(String(c.type))
      ? (c.type as StepDraft["condType"])
      : "clicked";
    Object.assign(d, {
      condType,
      condStep: str(c.step),
      condTag: str(c.tag_id),
      condSegment: str(c.segment_id),
      condKey: str(c.key),
      condOp: c.op === "set" || c.op === "not_set" ? c.op : "eq",
      condValue: Array.isArray(c.value) ? c.value.join(", ") : str(c.value),
      condProduct: str(c.product_id),
      condEvent: str(c.event_id),
      then: str(step.then),
      else: str(step.else),
    });
  }
  if (type === "add_tag" || type === "remove_tag") d.tag_id = str(step.tag_id);
  if (type === "join_topic" || type === "leave_topic") d.topic_id = str(step.topic_id);
  if (type === "create_task")
    Object.assign(d, {
      title: str(step.title),
      due_in_days: str(step.due_in_days),
      user_id: str(step.assignee_user_id),
    });
  if (type === "notify_member")
    Object.assign(d, { title: str(step.title), notifyBody: str(step.body), user_id: str(step.user_id) });
  if (type === "update_field")
    Object.assign(d, {
      field: step.custom_field ? `custom:${str(step.custom_field)}` : str(step.field),
      value: Array.isArray(step.value) ? step.value.join(", ") : str(step.value),
    });
  if (type === "send_webhook")
    Object.assign(d, { endpoint_id: str(step.endpoint_id), label: str(step.label) });
  return d;
}

/** A value typed for a custom field, as its type takes it (a number, yes/no, a list). */
export function typedValue(text: string, fieldType: string | undefined): unknown {
  if (fieldType === "number") return num(text) ?? text;
  if (fieldType === "boolean") return text === "true" || text === "yes";
  if (fieldType === "multi_select")
    return text
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean);
  return text;
}

const optional = (key: string, value: string) => (value.trim() ? { [key]: value.trim() } : {});

/** A number field as the step format takes it: empty left out, a number as a number, else as typed. */
const num = (v: string): number | string | undefined => {
  if (v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
};

const withNext = (step: Record<string, unknown>, next: string) => (next ? { ...step, next } : step);

/** The step in the format the server stores (docs/api.md, "Campaign steps"). */
export function stepFromDraft(d: StepDraft, fields: FieldOption[] = []): Record<string, unknown> {
  const typeOf = (key: string) => fields.find((f) => f.key === key)?.field_type;
  const base = { id: d.id.trim(), type: d.type };
  switch (d.type) {
    case "send_email": {
      // a language whose subject and body are both empty is no translation; half of one is sent, and refused
      const translations = Object.fromEntries(
        Object.entries(d.translations).filter(([, t]) => t.subject.trim() || t.body.trim()),
      );
      return withNext(
        {
          ...base,
          subject: d.subject,
          body: d.body,
          ...(d.topic_id ? { topic_id: d.topic_id } : {}),
          ...(Object.keys(translations).length ? { translations } : {}),
        },
        d.next,
      );
    }
    case "wait": {
      if (d.waitMode === "event")
        return withNext(
          { ...base, before_event: { hours: num(d.eventHours) ?? 0, ...optional("event_id", d.event_id) } },
          d.next,
        );
      if (d.waitMode === "until")
        return withNext(
          { ...base, until: { ...(d.weekday ? { weekday: d.weekday } : {}), time: d.time } },
          d.next,
        );
      const duration = Object.fromEntries(
        (["days", "hours", "minutes"] as const)
          .map((k) => [k, num(d[k])] as const)
          .filter(([, v]) => v !== undefined),
      );
      return withNext({ ...base, duration }, d.next);
    }
    case "branch": {
      const condition = conditionFromDraft(d, typeOf(d.condKey));
      return { ...base, condition, ...(d.then ? { then: d.then } : {}), ...(d.else ? { else: d.else } : {}) };
    }
    case "add_tag":
    case "remove_tag":
      return withNext({ ...base, tag_id: d.tag_id }, d.next);
    case "join_topic":
    case "leave_topic":
      return withNext({ ...base, topic_id: d.topic_id }, d.next);
    case "create_task":
      return withNext(
        {
          ...base,
          title: d.title,
          ...(num(d.due_in_days) !== undefined ? { due_in_days: num(d.due_in_days) } : {}),
          ...optional("assignee_user_id", d.user_id),
        },
        d.next,
      );
    case "notify_member":
      return withNext(
        { ...base, title: d.title, ...optional("body", d.notifyBody), ...optional("user_id", d.user_id) },
        d.next,
      );
    case "update_field": {
      const custom = d.field.startsWith("custom:") ? d.field.slice("custom:".length) : null;
      return withNext(
        custom
          ? { ...base, custom_field: custom, value: typedValue(d.value, typeOf(custom)) }
          : { ...base, ...(d.field ? { field: d.field } : {}), value: d.value },
        d.next,
      );
    }
    case "send_webhook":
      return withNext(
        { ...base, ...optional("endpoint_id", d.endpoint_id), ...optional("label", d.label) },
        d.next,
      );
    case "exit":
      return base;
  }
}

function conditionFromDraft(d: StepDraft, fieldType: string | undefined): Record<string, unknown> {
  switch (d.condType) {
    case "has_tag":
      return { type: "has_tag", tag_id: d.condTag };
    case "in_segment":
      return { type: "in_segment", segment_id: d.condSegment };
    case "custom_field":
      return d.condOp === "eq"
        ? { type: "custom_field", key: d.condKey, op: "eq", value: typedValue(d.condValue, fieldType) }
        : { type: "custom_field", key: d.condKey, op: d.condOp };
    case "purchased":
      return { type: "purchased", ...optional("product_id", d.condProduct) };
    case "registered":
    case "attended":
    case "no_show":
      return { type: d.condType, ...optional("event_id", d.condEvent) };
    case "opened":
    case "clicked":
      return { type: d.condType, step: d.condStep };
  }
}

/** The goals the builder offers: a tag given, a product bought, a form submitted, a segment entered. */
export const GOAL_KINDS = [
  { type: "tag_added", key: "tag_id", label: "gets one of these tags" },
  { type: "purchased", key: "product_id", label: "buys one of these products" },
  { type: "form_submitted", key: "form_id", label: "submits one of these forms" },
  { type: "segment_entered", key: "segment_id", label: "enters one of these segments" },
] as const;
export type GoalType = (typeof GOAL_KINDS)[number]["type"];
export type GoalChoices = Record<GoalType, string[]>;

/** The stored goals as the builder's checkboxes (ids per goal type). */
export function choicesFromGoals(goals: unknown[]): GoalChoices {
  const out: GoalChoices = { tag_added: [], purchased: [], form_submitted: [], segment_entered: [] };
  for (const goal of goals as Record<string, unknown>[]) {
    const kind = GOAL_KINDS.find((k) => k.type === goal?.type);
    if (kind && typeof goal[kind.key] === "string") out[kind.type].push(goal[kind.key] as string);
  }
  return out;
}

export const goalsFromChoices = (choices: GoalChoices) =>
  GOAL_KINDS.flatMap((kind) => choices[kind.type].map((id) => ({ type: kind.type, [kind.key]: id })));
