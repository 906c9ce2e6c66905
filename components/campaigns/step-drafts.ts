/**
 * The builder's editing shape of a step (every field a string, as the inputs hold it) and the
 * step format it becomes (docs/api.md, "Campaign steps"; lib/campaigns/steps.ts checks it on the
 * server). Nothing here validates: a wrong value goes to the server as it is and its refusal is
 * shown beside the step.
 */

export const STEP_TYPES = ["send_email", "wait", "branch", "add_tag", "remove_tag", "exit"] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const STEP_TYPE_LABEL: Record<StepType, string> = {
  send_email: "Send an email",
  wait: "Wait",
  branch: "Branch",
  add_tag: "Add a tag",
  remove_tag: "Remove a tag",
  exit: "Exit",
};

const PREFIX: Record<StepType, string> = {
  send_email: "email",
  wait: "wait",
  branch: "branch",
  add_tag: "tag",
  remove_tag: "untag",
  exit: "exit",
};

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
  topic_id: string;
  waitMode: "duration" | "until";
  days: string;
  hours: string;
  minutes: string;
  weekday: string;
  time: string;
  condType: "opened" | "clicked" | "has_tag" | "in_segment";
  condStep: string;
  condTag: string;
  condSegment: string;
  then: string;
  else: string;
  tag_id: string;
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
  topic_id: "",
  waitMode: "duration",
  days: "1",
  hours: "",
  minutes: "",
  weekday: "",
  time: "09:00",
  condType: "clicked",
  condStep: "",
  condTag: "",
  condSegment: "",
  then: "",
  else: "",
  tag_id: "",
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
  if (type === "send_email")
    Object.assign(d, { subject: str(step.subject), body: str(step.body), topic_id: str(step.topic_id) });
  if (type === "wait") {
    const duration = step.duration as Record<string, unknown> | undefined;
    const until = step.until as Record<string, unknown> | undefined;
    if (until) Object.assign(d, { waitMode: "until", weekday: str(until.weekday), time: str(until.time) });
    else
      Object.assign(d, {
        days: str(duration?.days),
        hours: str(duration?.hours),
        minutes: str(duration?.minutes),
      });
  }
  if (type === "branch") {
    const c = (step.condition ?? {}) as Record<string, unknown>;
    const condType = ["opened", "clicked", "has_tag", "in_segment"].includes(String(c.type))
      ? (c.type as StepDraft["condType"])
      : "clicked";
    Object.assign(d, {
      condType,
      condStep: str(c.step),
      condTag: str(c.tag_id),
      condSegment: str(c.segment_id),
      then: str(step.then),
      else: str(step.else),
    });
  }
  if (type === "add_tag" || type === "remove_tag") d.tag_id = str(step.tag_id);
  return d;
}

/** A number field as the step format takes it: empty left out, a number as a number, else as typed. */
const num = (v: string): number | string | undefined => {
  if (v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
};

const withNext = (step: Record<string, unknown>, next: string) => (next ? { ...step, next } : step);

/** The step in the format the server stores (docs/api.md, "Campaign steps"). */
export function stepFromDraft(d: StepDraft): Record<string, unknown> {
  const base = { id: d.id.trim(), type: d.type };
  switch (d.type) {
    case "send_email":
      return withNext(
        { ...base, subject: d.subject, body: d.body, ...(d.topic_id ? { topic_id: d.topic_id } : {}) },
        d.next,
      );
    case "wait": {
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
      const condition =
        d.condType === "has_tag"
          ? { type: "has_tag", tag_id: d.condTag }
          : d.condType === "in_segment"
            ? { type: "in_segment", segment_id: d.condSegment }
            : { type: d.condType, step: d.condStep };
      return { ...base, condition, ...(d.then ? { then: d.then } : {}), ...(d.else ? { else: d.else } : {}) };
    }
    case "add_tag":
    case "remove_tag":
      return withNext({ ...base, tag_id: d.tag_id }, d.next);
    case "exit":
      return base;
  }
}

/** The goals the builder offers: "the contact gets one of these tags". */
export function tagsFromGoals(goals: unknown[]): string[] {
  return goals
    .filter((g): g is { type: string; tag_id: string } => (g as { type?: unknown })?.type === "tag_added")
    .map((g) => g.tag_id);
}

export const goalsFromTags = (tagIds: string[]) => tagIds.map((tag_id) => ({ type: "tag_added", tag_id }));
