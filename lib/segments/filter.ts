import { z } from "zod";
import { EMAIL_STATUSES } from "@/lib/contacts/get-contacts-params";
import { uuidField } from "@/lib/ids/uuid";
import { refused, type Result } from "@/lib/errors/app-error";
import { calendarDate } from "@/lib/time/calendar";

/**
 * The one contact filter (docs/decisions.md, "Segments"): a versioned tree of AND/OR groups of
 * conditions, shared by the contact list, saved segments, broadcasts, exports and the REST API.
 * Every condition may be negated (`not`); every SQL form of a condition is true or false, never
 * null, so negation is exact. Dates are calendar days in UTC; `withinDays` counts back from now.
 */

export const SEGMENT_FILTER_VERSION = 1;
/** Nesting below the root group, and conditions in the whole tree. */
export const MAX_DEPTH = 3;
export const MAX_CONDITIONS = 30;
const MAX_IDS = 50;

const id = uuidField("Not a valid id.");
const ids = z.array(id).min(1, "Choose at least one.").max(MAX_IDS, `At most ${MAX_IDS}.`);
const day = calendarDate("A date as YYYY-MM-DD.");
const days = z.number().int("Whole days.").min(1, "At least 1 day.").max(36_500, "At most 100 years.");
const money = z.number().min(0, "Not below 0.").max(99_999_999, "Too large.");

/** A time window on one timestamp: on or after `onOrAfter`, before `before`, within the last `withinDays`. */
export const windowSchema = z
  .object({ withinDays: days.optional(), onOrAfter: day.optional(), before: day.optional() })
  .strict();
export type Window = z.output<typeof windowSchema>;

const not = z.boolean().default(false);

export const SUPPRESSION_REASONS = ["bounce", "complaint", "unsubscribe", "manual"] as const;
export const CONSENT_STATES = ["subscribed", "unsubscribed", "not_opted_in", "marketing_eligible"] as const;
export const ENGAGEMENT_EVENTS = [
  "delivered",
  "opened",
  "clicked",
  "bounced",
  "complained",
  "unsubscribed",
] as const;

export const conditionSchema = z.discriminatedUnion("kind", [
  // spec 4.15 tag resolution: any (union), all (intersection); `not` gives "holds none of"
  z
    .object({ kind: z.literal("tag"), not, match: z.enum(["any", "all"]).default("any"), tagIds: ids })
    .strict(),
  z
    .object({
      kind: z.literal("source"),
      not,
      sources: z.array(z.string().trim().min(1).max(100)).min(1, "Choose at least one.").max(20),
    })
    .strict(),
  // spec 4.15 search words: each must appear in the email, names or phone
  z
    .object({ kind: z.literal("search"), not, text: z.string().trim().min(1, "Write a word.").max(200) })
    .strict(),
  // the home dashboard's email status (docs/decisions.md, "Home dashboard"), as the list's filter
  z.object({ kind: z.literal("email_status"), not, status: z.enum(EMAIL_STATUSES) }).strict(),
  // spec 3.3 consent state; marketing_eligible is spec 8.3
  z.object({ kind: z.literal("consent"), not, state: z.enum(CONSENT_STATES) }).strict(),
  // spec 2.6: holds a suppression of one of these reasons (any reason when none is named)
  z
    .object({
      kind: z.literal("suppression"),
      not,
      reasons: z.array(z.enum(SUPPRESSION_REASONS)).max(4).default([]),
    })
    .strict(),
  z.object({ kind: z.literal("created"), not, window: windowSchema }).strict(),
  // spec 2.2: submitted this form (any form when none is named) in the window
  z
    .object({
      kind: z.literal("form_submitted"),
      not,
      formId: id.optional(),
      window: windowSchema.default({}),
    })
    .strict(),
  // spec 2.8: registered (status 'registered') for this event (any event when none is named)
  z.object({ kind: z.literal("event_registered"), not, eventId: id.optional() }).strict(),
  // attended: checked in at this event (any event when none is named), whatever became of the
  // registration afterwards (docs/decisions.md, "Segments": attendance)
  z.object({ kind: z.literal("event_attended"), not, eventId: id.optional() }).strict(),
  // no-show: registered (status 'registered') for this event (any event when none is named) that
  // has ended, and not checked in (docs/decisions.md, "Segments": attendance)
  z.object({ kind: z.literal("event_no_show"), not, eventId: id.optional() }).strict(),
  // spec 2.5: a succeeded transaction (refunded ones are not purchases) of the product, with
  // amount_paid in the range, in the window
  z
    .object({
      kind: z.literal("purchased"),
      not,
      productId: id.optional(),
      minAmount: money.optional(),
      maxAmount: money.optional(),
      window: windowSchema.default({}),
    })
    .strict(),
  // a custom field (docs/decisions.md, "Custom fields"), compared as its definition's type says
  // (lib/contacts/custom-fields customFieldFilterSql); a key the workspace lacks matches no one
  z
    .object({
      kind: z.literal("custom_field"),
      not,
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
  // email engagement (docs/decisions.md, "Email engagement"): a send to the contact (of this
  // broadcast) whose first such event falls in the window; opens and clicks made by software are
  // not engagement
  z
    .object({
      kind: z.literal("email_engagement"),
      not,
      event: z.enum(ENGAGEMENT_EVENTS),
      broadcastId: id.optional(),
      window: windowSchema.default({}),
    })
    .strict(),
]);
export type Condition = z.output<typeof conditionSchema>;
export type ConditionKind = Condition["kind"];

export interface Group {
  kind: "group";
  op: "and" | "or";
  not: boolean;
  conditions: Node[];
}
export type Node = Group | Condition;

const groupSchema: z.ZodType<Group, unknown> = z.lazy(() =>
  z
    .object({
      kind: z.literal("group"),
      op: z.enum(["and", "or"]),
      not,
      conditions: z.array(z.union([groupSchema, conditionSchema])).max(MAX_CONDITIONS),
    })
    .strict()
    .meta({ id: "SegmentFilterGroup" }),
);

export const segmentFilterSchema = z
  .object({
    version: z.literal(SEGMENT_FILTER_VERSION, { error: "Only version 1 filters exist." }),
    root: groupSchema,
  })
  .strict()
  .superRefine((filter, ctx) => {
    let count = 0;
    const walk = (node: Node, depth: number, path: (string | number)[]) => {
      if (node.kind !== "group") {
        count++;
        if (node.kind === "purchased" && node.minAmount !== undefined && node.maxAmount !== undefined)
          if (node.minAmount > node.maxAmount)
            ctx.addIssue({ code: "custom", path: [...path, "maxAmount"], message: "Below the minimum." });
        return;
      }
      if (depth > MAX_DEPTH)
        ctx.addIssue({ code: "custom", path, message: `Groups nest at most ${MAX_DEPTH} deep.` });
      node.conditions.forEach((child, i) => walk(child, depth + 1, [...path, "conditions", i]));
    };
    walk(filter.root, 0, ["root"]);
    if (count > MAX_CONDITIONS)
      ctx.addIssue({ code: "custom", path: ["root"], message: `At most ${MAX_CONDITIONS} conditions.` });
  });
export type SegmentFilter = z.output<typeof segmentFilterSchema>;

/** The filter matching every contact of the workspace. */
export const EVERYONE: SegmentFilter = {
  version: 1,
  root: { kind: "group", op: "and", not: false, conditions: [] },
};

/** A filter from outside (a form, the REST API, a stored row), or `invalid` naming the first bad field. */
export function parseSegmentFilter(input: unknown): Result<SegmentFilter> {
  const parsed = segmentFilterSchema.safeParse(input);
  if (parsed.success) return { data: parsed.data };
  const issue = parsed.error.issues[0];
  const field = ["filter", ...(issue?.path ?? []).map(String)].join(".");
  return refused("invalid", `${field}: ${issue?.message ?? "not valid"}`, { field });
}

/** The leaves of the tree in depth-first order: their positions number the explainer's answers. */
export function leaves(node: Node): Condition[] {
  return node.kind === "group" ? node.conditions.flatMap(leaves) : [node];
}
