import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { uuidSchema } from "@/lib/ids/uuid";
import { LOCALES } from "@/lib/i18n/locales";
import { MergeTagError, parseMergeTemplate } from "@/lib/email/merge-tags";
import { PERSON_FIELDS } from "@/lib/contacts/contact-row";
import {
  checkCustomFieldFilter,
  customFieldValueSchema,
  listCustomFields,
  type CustomField,
  type CustomFieldFilter,
} from "@/lib/contacts/custom-fields";

/**
 * A campaign's steps (docs/api.md, "Campaign steps"; docs/decisions.md, "Campaigns as versioned
 * step lists"): an ordered list. A step goes on to the step after it in the list unless it names
 * another (`next`; a branch's `then` and `else`); a name may only point further down the list,
 * so every journey ends. Past the last step, or at a `next` of "end", the enrollment is
 * 'completed'; an `exit` step ends it as 'exited'.
 */
export const stepIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "Use lowercase letters, digits, - and _ (at most 64).")
  .refine((id) => id !== "end", '"end" is the end of the journey, not a step name.');

/** The target that ends the journey as 'completed' (no step may take its name). */
export const END = "end";

const next = z.union([stepIdSchema, z.literal(END)]).optional();

export const WEEKDAYS = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;

/** A send step's email in one more language (docs/decisions.md, "Recipient languages"). */
const sendEmailTranslation = z
  .object({
    subject: z.string().trim().min(1, "A translation needs a subject.").max(200),
    body: z.string().trim().min(1, "A translation needs a body.").max(100_000),
  })
  .strict();

const sendEmail = z
  .object({
    id: stepIdSchema,
    type: z.literal("send_email"),
    subject: z.string().trim().min(1, "A send step needs a subject.").max(200),
    body: z.string().trim().min(1, "A send step needs a body.").max(100_000),
    topic_id: uuidSchema.optional(),
    /**
     * the email in other shipped languages, by code: a contact whose locale is one of them gets it,
     * everyone else the subject and body above
     */
    translations: z.partialRecord(z.enum(LOCALES), sendEmailTranslation).optional().meta({
      description: "The email in other languages (en, es, fr, de), chosen by the contact's locale.",
    }),
    next,
  })
  .strict();

const duration = z
  .object({
    days: z.number().int().min(0).max(365).optional(),
    hours: z.number().int().min(0).max(10_000).optional(),
    minutes: z.number().int().min(0).max(1_000_000).optional(),
  })
  .strict();

const wait = z
  .object({
    id: stepIdSchema,
    type: z.literal("wait"),
    duration: duration.optional(),
    until: z
      .object({
        weekday: z.enum(WEEKDAYS).optional(),
        time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "A time is HH:MM, 24-hour."),
      })
      .strict()
      .optional(),
    // until the event's start minus `hours` (the enrollment's event when none is named)
    before_event: z
      .object({
        hours: z.number().int().min(0).max(8_760),
        event_id: uuidSchema.optional(),
      })
      .strict()
      .optional(),
    next,
  })
  .strict();

const optionalId = uuidSchema.optional();

const condition = z.discriminatedUnion("type", [
  z.object({ type: z.enum(["opened", "clicked"]), step: stepIdSchema }).strict(),
  z.object({ type: z.literal("has_tag"), tag_id: uuidSchema }).strict(),
  z.object({ type: z.literal("in_segment"), segment_id: uuidSchema }).strict(),
  // a custom field's value, compared as the segment filter compares it (lib/contacts/custom-fields)
  z
    .object({
      type: z.literal("custom_field"),
      key: z.string().trim().min(1).max(63),
      op: z.enum(["eq", "any", "range", "contains", "set", "not_set"]),
      value: z
        .union([z.string().max(200), z.number(), z.boolean(), z.array(z.string().max(200)).max(50)])
        .optional(),
      values: z.array(z.string().max(200)).max(50).optional(),
      min: z.union([z.number(), z.string().max(50)]).optional(),
      max: z.union([z.number(), z.string().max(50)]).optional(),
      text: z.string().max(200).optional(),
    })
    .strict(),
  // a succeeded purchase (of the product; any when none is named)
  z.object({ type: z.literal("purchased"), product_id: optionalId }).strict(),
  // registered for the event (the enrollment's event when none is named; else any)
  z.object({ type: z.literal("registered"), event_id: optionalId }).strict(),
  // checked in at the event
  z.object({ type: z.literal("attended"), event_id: optionalId }).strict(),
  // registered for an event that has started, and not checked in
  z.object({ type: z.literal("no_show"), event_id: optionalId }).strict(),
]);
export type BranchCondition = z.output<typeof condition>;

const branch = z
  .object({
    id: stepIdSchema,
    type: z.literal("branch"),
    condition,
    then: next,
    else: next,
  })
  .strict();

const tagStep = z
  .object({ id: stepIdSchema, type: z.enum(["add_tag", "remove_tag"]), tag_id: uuidSchema, next })
  .strict();

const exitStep = z.object({ id: stepIdSchema, type: z.literal("exit") }).strict();

/** Join or leave a subscription topic, through the consent rules and the ledger (lib/campaigns/topic-step.ts). */
const topicStep = z
  .object({ id: stepIdSchema, type: z.enum(["join_topic", "leave_topic"]), topic_id: uuidSchema, next })
  .strict();

const createTask = z
  .object({
    id: stepIdSchema,
    type: z.literal("create_task"),
    title: z.string().trim().min(1, "A task needs a title.").max(200),
    due_in_days: z.number().int().min(0).max(365).optional(),
    assignee_user_id: uuidSchema.optional(),
    next,
  })
  .strict();

/** Sets a person field (`field`) or a custom field (`custom_field`), spec 4.10's diff-and-audit. */
const updateField = z
  .object({
    id: stepIdSchema,
    type: z.literal("update_field"),
    field: z.enum(PERSON_FIELDS).optional(),
    custom_field: z.string().trim().min(1).max(63).optional(),
    value: z.union([z.string().max(2_000), z.number(), z.boolean(), z.array(z.string().max(200)).max(50)]),
    next,
  })
  .strict();

/** A `campaign.step` event to the workspace's webhook endpoints (one, when named). */
const sendWebhook = z
  .object({
    id: stepIdSchema,
    type: z.literal("send_webhook"),
    endpoint_id: uuidSchema.optional(),
    label: z.string().trim().max(100).optional(),
    next,
  })
  .strict();

/** A dashboard notification to a member (every member when none is named). */
const notifyMember = z
  .object({
    id: stepIdSchema,
    type: z.literal("notify_member"),
    title: z.string().trim().min(1, "A notification needs a title.").max(200),
    body: z.string().trim().max(2_000).optional(),
    user_id: uuidSchema.optional(),
    next,
  })
  .strict();

export const stepSchema = z.discriminatedUnion("type", [
  sendEmail,
  wait,
  branch,
  tagStep,
  exitStep,
  topicStep,
  createTask,
  updateField,
  sendWebhook,
  notifyMember,
]);
export type CampaignStep = z.output<typeof stepSchema>;
export type SendEmailStep = z.output<typeof sendEmail>;
export type WaitStep = z.output<typeof wait>;
export type BranchStep = z.output<typeof branch>;
export type UpdateFieldStep = z.output<typeof updateField>;
export type CreateTaskStep = z.output<typeof createTask>;
export type SendWebhookStep = z.output<typeof sendWebhook>;
export type NotifyMemberStep = z.output<typeof notifyMember>;

/** A goal: once true the enrollment is 'completed' wherever it stands. */
export const goalSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("tag_added"), tag_id: uuidSchema }).strict(),
  z.object({ type: z.literal("purchased"), product_id: uuidSchema }).strict(),
  z.object({ type: z.literal("form_submitted"), form_id: uuidSchema }).strict(),
  z.object({ type: z.literal("segment_entered"), segment_id: uuidSchema }).strict(),
]);
export type CampaignGoal = z.output<typeof goalSchema>;

export const MAX_STEPS = 100;

/** A step as the request carries it, before validateSteps reads it (its id and type, loosely). */
export const looseStepSchema = z
  .looseObject({ id: z.string().max(64), type: z.string().max(32) })
  .meta({ description: 'A step (docs/api.md, "Campaign steps"): `id`, `type` and the fields of its type.' });

/** The refusal of an invalid graph: 400 `invalid`, the message naming the step. */
function refuse(step: { id?: unknown; type?: unknown } | null, index: number, message: string): never {
  const name = step && typeof step.id === "string" ? `"${step.id}"` : `#${index + 1}`;
  throw new AppError("invalid", `Step ${name}: ${message}`, {
    field: `steps[${index}]`,
    details: { step: step && typeof step.id === "string" ? step.id : null },
  });
}

/**
 * Parses and checks a step list: every step well formed, ids unique, every `next`/`then`/`else`
 * a step further down, a branch on an email naming a send step above it, a wait longer than
 * zero, merge tags known, tags, topics and segments of the workspace. Throws AppError('invalid')
 * naming the first bad step; the caller stores nothing.
 */
export async function validateSteps(
  db: Db,
  workspaceId: string,
  raw: unknown[],
  rawGoals: unknown[] = [],
): Promise<{ steps: CampaignStep[]; goals: CampaignGoal[] }> {
  if (raw.length > MAX_STEPS)
    throw new AppError("invalid", `At most ${MAX_STEPS} steps.`, { field: "steps" });
  // Postgres keeps no NUL character in jsonb text: refused as bad input, never a 500
  raw.forEach((item, i) => {
    if (JSON.stringify(item).includes("\\u0000"))
      refuse(item as { id?: unknown }, i, "text may not hold a NUL character.");
  });
  if (JSON.stringify(rawGoals).includes("\\u0000"))
    throw new AppError("invalid", "A goal may not hold a NUL character.", { field: "goals" });
  const steps: CampaignStep[] = raw.map((item, i) => {
    const parsed = stepSchema.safeParse(item);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? ` (${issue.path.join(".")})` : "";
    return refuse(item as { id?: unknown }, i, `${issue.message}${where}`);
  });
  const position = new Map<string, number>();
  steps.forEach((s, i) => {
    if (position.has(s.id)) refuse(s, i, "another step has the same id.");
    position.set(s.id, i);
  });
  const forward = (s: CampaignStep, i: number, target: string | undefined, label: string) => {
    if (target === undefined || target === END) return;
    const at = position.get(target);
    if (at === undefined) refuse(s, i, `${label} names the step "${target}", which does not exist.`);
    if (at <= i) refuse(s, i, `${label} must name a step further down the list ("${target}" is above it).`);
  };
  const refs: Ref[] = [];
  const ref = (table: RefTable, id: string | undefined, at: number) => {
    if (id) refs.push({ table, id: id.toLowerCase(), at });
  };
  const customFieldSteps: { index: number; key: string; check: (f: CustomField) => string | null }[] = [];
  const mergeChecked = (s: CampaignStep, i: number, ...texts: (string | undefined)[]) => {
    try {
      for (const text of texts) if (text) parseMergeTemplate(text);
    } catch (error) {
      if (error instanceof MergeTagError) refuse(s, i, error.message);
      throw error;
    }
  };
  steps.forEach((s, i) => {
    switch (s.type) {
      case "send_email":
        mergeChecked(s, i, s.subject, s.body);
        for (const t of Object.values(s.translations ?? {})) if (t) mergeChecked(s, i, t.subject, t.body);
        ref("email_topics", s.topic_id, i);
        forward(s, i, s.next, "next");
        return;
      case "wait": {
        const kinds = [s.duration, s.until, s.before_event].filter(Boolean).length;
        if (kinds !== 1) refuse(s, i, "a wait has one of a duration, an until or a before_event.");
        const d = s.duration;
        if (d && (d.days ?? 0) * 1440 + (d.hours ?? 0) * 60 + (d.minutes ?? 0) <= 0)
          refuse(s, i, "a wait must be longer than zero.");
        ref("events", s.before_event?.event_id, i);
        forward(s, i, s.next, "next");
        return;
      }
      case "branch": {
        const c = s.condition;
        if (c.type === "opened" || c.type === "clicked") {
          const at = position.get(c.step);
          if (at === undefined) refuse(s, i, `the branch reads the step "${c.step}", which does not exist.`);
          if (steps[at].type !== "send_email")
            refuse(s, i, `the branch reads the step "${c.step}", which sends no email.`);
          if (at >= i) refuse(s, i, `the branch reads the step "${c.step}", which comes after it.`);
        }
        if (c.type === "has_tag") ref("tags", c.tag_id, i);
        if (c.type === "in_segment") ref("segments", c.segment_id, i);
        if (c.type === "purchased") ref("products", c.product_id, i);
        if (c.type === "registered" || c.type === "attended" || c.type === "no_show")
          ref("events", c.event_id, i);
        if (c.type === "custom_field") {
          const { type: _type, key, ...filter } = c;
          customFieldSteps.push({
            index: i,
            key,
            check: (field) => {
              const checked = checkCustomFieldFilter(field, filter as CustomFieldFilter);
              return "error" in checked ? checked.error.message : null;
            },
          });
        }
        forward(s, i, s.then, "then");
        forward(s, i, s.else, "else");
        return;
      }
      case "add_tag":
      case "remove_tag":
        ref("tags", s.tag_id, i);
        forward(s, i, s.next, "next");
        return;
      case "join_topic":
      case "leave_topic":
        ref("email_topics", s.topic_id, i);
        forward(s, i, s.next, "next");
        return;
      case "create_task":
        mergeChecked(s, i, s.title);
        ref("members", s.assignee_user_id, i);
        forward(s, i, s.next, "next");
        return;
      case "update_field": {
        if (!s.field === !s.custom_field) refuse(s, i, "name either a field or a custom_field.");
        if (s.field) {
          // spec 4.10: an empty value never clears a field, so a step may not write one
          if (typeof s.value !== "string" || s.value.trim() === "" || s.value.length > 200)
            refuse(s, i, `the value of ${s.field} is a text of 1 to 200 characters.`);
        } else {
          const value = s.value;
          customFieldSteps.push({
            index: i,
            key: s.custom_field!,
            check: (field) => {
              const parsed = customFieldValueSchema(field).safeParse(value);
              return parsed.success
                ? null
                : (parsed.error.issues[0]?.message ?? "the value does not fit the field.");
            },
          });
        }
        forward(s, i, s.next, "next");
        return;
      }
      case "send_webhook":
        ref("webhook_endpoints", s.endpoint_id, i);
        forward(s, i, s.next, "next");
        return;
      case "notify_member":
        mergeChecked(s, i, s.title, s.body);
        ref("members", s.user_id, i);
        forward(s, i, s.next, "next");
        return;
      case "exit":
        return;
    }
  });
  const goals = rawGoals.map((g, i) => {
    const parsed = goalSchema.safeParse(g);
    if (!parsed.success)
      throw new AppError("invalid", `Goal #${i + 1}: ${parsed.error.issues[0].message}`, {
        field: `goals[${i}]`,
      });
    const goal = parsed.data;
    const at = -(i + 1); // goals are numbered below zero in the refs
    if (goal.type === "tag_added") ref("tags", goal.tag_id, at);
    if (goal.type === "purchased") ref("products", goal.product_id, at);
    if (goal.type === "form_submitted") ref("forms", goal.form_id, at);
    if (goal.type === "segment_entered") ref("segments", goal.segment_id, at);
    return goal;
  });
  if (customFieldSteps.length) {
    const fields = new Map((await listCustomFields(db, workspaceId)).map((f) => [f.key, f]));
    for (const { index, key, check } of customFieldSteps) {
      const field = fields.get(key);
      if (!field) refuse(steps[index], index, `no custom field "${key}" in this workspace.`);
      const problem = check(field);
      if (problem) refuse(steps[index], index, problem);
    }
  }
  await refuseUnknown(db, workspaceId, refs, steps);
  return { steps, goals };
}

type RefTable =
  "tags" | "email_topics" | "segments" | "products" | "events" | "forms" | "webhook_endpoints" | "members";
/** An id a step (at >= 0) or goal (at = -(goal + 1)) names, to be found in the workspace. */
interface Ref {
  table: RefTable;
  id: string;
  at: number;
}

const NOUN: Record<RefTable, string> = {
  tags: "tag",
  email_topics: "topic",
  segments: "segment",
  products: "product",
  events: "event",
  forms: "form",
  webhook_endpoints: "webhook endpoint",
  members: "member",
};

/** Refuses the first step (or goal) naming a row that is not the workspace's (one query per table). */
async function refuseUnknown(db: Db, workspaceId: string, refs: Ref[], steps: CampaignStep[]) {
  const tables = [...new Set(refs.map((r) => r.table))];
  const known = new Set<string>();
  for (const table of tables) {
    const ids = [...new Set(refs.filter((r) => r.table === table).map((r) => r.id))];
    const rows = await FIND[table](db, workspaceId, ids);
    for (const r of rows) known.add(`${table}:${r.id}`);
  }
  const missing = refs
    .filter((r) => !known.has(`${r.table}:${r.id}`))
    .sort((a, b) => (a.at < 0 ? 1000 - a.at : a.at) - (b.at < 0 ? 1000 - b.at : b.at))[0];
  if (!missing) return;
  const message = `no such ${NOUN[missing.table]} in this workspace (${missing.id}).`;
  if (missing.at >= 0) refuse(steps[missing.at], missing.at, message);
  const g = -missing.at - 1;
  throw new AppError("invalid", `Goal #${g + 1}: ${message}`, { field: `goals[${g}]` });
}

const FIND: Record<RefTable, (db: Db, ws: string, ids: string[]) => Promise<{ id: string }[]>> = {
  tags: (db, ws, ids) =>
    db<{ id: string }[]>`select id from public.tags where workspace_id = ${ws} and id = any(${ids}::uuid[])`,
  email_topics: (db, ws, ids) =>
    db<
      { id: string }[]
    >`select id from public.email_topics where workspace_id = ${ws} and id = any(${ids}::uuid[])`,
  segments: (db, ws, ids) =>
    db<
      { id: string }[]
    >`select id from public.segments where workspace_id = ${ws} and id = any(${ids}::uuid[])`,
  products: (db, ws, ids) =>
    db<
      { id: string }[]
    >`select id from public.products where workspace_id = ${ws} and id = any(${ids}::uuid[])`,
  events: (db, ws, ids) =>
    db<
      { id: string }[]
    >`select id from public.events where workspace_id = ${ws} and id = any(${ids}::uuid[])`,
  forms: (db, ws, ids) =>
    db<{ id: string }[]>`select id from public.forms where workspace_id = ${ws} and id = any(${ids}::uuid[])`,
  webhook_endpoints: (db, ws, ids) =>
    db<
      { id: string }[]
    >`select id from public.webhook_endpoints where workspace_id = ${ws} and id = any(${ids}::uuid[])`,
  members: (db, ws, ids) =>
    db<
      { id: string }[]
    >`select user_id as id from public.workspace_members where workspace_id = ${ws} and user_id = any(${ids}::uuid[])`,
};

/** Where a step goes next: the step it names, or the one after it in the list (null: the end). */
export function following(steps: CampaignStep[], from: CampaignStep, target?: string): CampaignStep | null {
  if (target === END) return null;
  if (target) return steps.find((s) => s.id === target) ?? null;
  const i = steps.findIndex((s) => s.id === from.id);
  return steps[i + 1] ?? null;
}
