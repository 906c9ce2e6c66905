import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { uuidSchema } from "@/lib/ids/uuid";
import { MergeTagError, parseMergeTemplate } from "@/lib/email/merge-tags";

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

const sendEmail = z
  .object({
    id: stepIdSchema,
    type: z.literal("send_email"),
    subject: z.string().trim().min(1, "A send step needs a subject.").max(200),
    body: z.string().trim().min(1, "A send step needs a body.").max(100_000),
    topic_id: uuidSchema.optional(),
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
    next,
  })
  .strict();

const condition = z.discriminatedUnion("type", [
  z.object({ type: z.enum(["opened", "clicked"]), step: stepIdSchema }).strict(),
  z.object({ type: z.literal("has_tag"), tag_id: uuidSchema }).strict(),
  z.object({ type: z.literal("in_segment"), segment_id: uuidSchema }).strict(),
]);

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

export const stepSchema = z.discriminatedUnion("type", [sendEmail, wait, branch, tagStep, exitStep]);
export type CampaignStep = z.output<typeof stepSchema>;
export type SendEmailStep = z.output<typeof sendEmail>;
export type WaitStep = z.output<typeof wait>;
export type BranchStep = z.output<typeof branch>;

/** A goal: once true the enrollment is 'completed' wherever it stands. */
export const goalSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("tag_added"), tag_id: uuidSchema }).strict(),
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
  const tagIds = new Set<string>();
  const topicIds = new Set<string>();
  const segmentIds = new Set<string>();
  steps.forEach((s, i) => {
    switch (s.type) {
      case "send_email":
        try {
          parseMergeTemplate(s.subject);
          parseMergeTemplate(s.body);
        } catch (error) {
          if (error instanceof MergeTagError) refuse(s, i, error.message);
          throw error;
        }
        if (s.topic_id) topicIds.add(s.topic_id);
        forward(s, i, s.next, "next");
        return;
      case "wait": {
        if (!s.duration === !s.until) refuse(s, i, "a wait has either a duration or an until.");
        const d = s.duration;
        if (d && (d.days ?? 0) * 1440 + (d.hours ?? 0) * 60 + (d.minutes ?? 0) <= 0)
          refuse(s, i, "a wait must be longer than zero.");
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
        if (c.type === "has_tag") tagIds.add(c.tag_id);
        if (c.type === "in_segment") segmentIds.add(c.segment_id);
        forward(s, i, s.then, "then");
        forward(s, i, s.else, "else");
        return;
      }
      case "add_tag":
      case "remove_tag":
        tagIds.add(s.tag_id);
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
    tagIds.add(parsed.data.tag_id);
    return parsed.data;
  });
  await refuseUnknown(db, workspaceId, "tags", tagIds, steps, "tag_id", goals);
  await refuseUnknown(db, workspaceId, "email_topics", topicIds, steps, "topic_id", goals);
  await refuseUnknown(db, workspaceId, "segments", segmentIds, steps, "segment_id", goals);
  return { steps, goals };
}

/** Refuses the first step (or goal) naming a tag, topic or segment that is not the workspace's. */
async function refuseUnknown(
  db: Db,
  workspaceId: string,
  table: "tags" | "email_topics" | "segments",
  ids: Set<string>,
  steps: CampaignStep[],
  field: "tag_id" | "topic_id" | "segment_id",
  goals: CampaignGoal[],
) {
  if (ids.size === 0) return;
  const from = {
    tags: db`public.tags`,
    email_topics: db`public.email_topics`,
    segments: db`public.segments`,
  }[table];
  const found = await db<{ id: string }[]>`
    select id from ${from} where workspace_id = ${workspaceId} and id = any(${[...ids]}::uuid[])`;
  const known = new Set(found.map((r) => r.id));
  const missing = [...ids].find((id) => !known.has(id));
  if (!missing) return;
  const i = steps.findIndex((s) => {
    const values = [
      (s as Record<string, unknown>)[field],
      s.type === "branch" ? (s.condition as Record<string, unknown>)[field] : undefined,
    ];
    return values.includes(missing);
  });
  const noun = { tags: "tag", email_topics: "topic", segments: "segment" }[table];
  if (i >= 0) refuse(steps[i], i, `no such ${noun} in this workspace (${missing}).`);
  const g = goals.findIndex((goal) => goal.tag_id === missing);
  throw new AppError("invalid", `Goal #${g + 1}: no such ${noun} in this workspace (${missing}).`, {
    field: `goals[${g}]`,
  });
}

/** Where a step goes next: the step it names, or the one after it in the list (null: the end). */
export function following(steps: CampaignStep[], from: CampaignStep, target?: string): CampaignStep | null {
  if (target === END) return null;
  if (target) return steps.find((s) => s.id === target) ?? null;
  const i = steps.findIndex((s) => s.id === from.id);
  return steps[i + 1] ?? null;
}
