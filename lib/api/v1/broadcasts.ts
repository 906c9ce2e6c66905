import { z } from "zod";
import { topicInWorkspace } from "@/lib/consent/topics";
import type { Db } from "@/lib/db/doors";
import { getBroadcastStats } from "@/lib/email/broadcast-stats";
import {
  broadcastSchema as composedBroadcastSchema,
  createBroadcast,
  getBroadcast,
} from "@/lib/email/broadcasts";
import { controlBroadcast } from "@/lib/email/control-broadcast";
import { abTestSchema, abVariantSchema, loadAbTest, saveAbTest } from "@/lib/email/ab-test";
import { fromAddressOf, fromNameSchema, refuseUnverifiedFrom, replyToSchema } from "@/lib/email/from-address";
import { scheduleBroadcast } from "@/lib/email/schedule-broadcast";
import { AppError } from "@/lib/errors/app-error";
import { uuidSchema } from "@/lib/ids/uuid";
import { getSegment } from "@/lib/segments/get-segment";
import { bodyErrors, defineOperation, idempotencyConflict, notFound } from "./define";
import { idParams } from "./keyset";
import { created, ok } from "./route";
import { filterScopes, requireScopes, type ApiScope } from "./scopes";

const count = (description: string) => z.number().int().min(0).meta({ description });

/** docs/api.md, "Email engagement": counts of sends. */
export const broadcastStatsSchema = z
  .object({
    sent: count("Emails that left (or reached the dev outbox), whatever came of them."),
    delivered: count("Sends with a delivery report."),
    opened_unique: count("Sends opened at least once (machine opens included)."),
    clicked_unique: count("Sends with at least one link clicked (machine clicks included)."),
    bounced: count("Sends that bounced."),
    complained: count("Sends reported as spam."),
    unsubscribed: count("Sends whose recipient unsubscribed from them (the email's link)."),
  })
  .meta({ id: "BroadcastStats" });

/** GET /api/v1/broadcasts/{id}: the broadcast and its stats. */
export const broadcastSchema = z
  .object({
    id: uuidSchema,
    subject: z.string(),
    body_text: z.string(),
    status: z.enum(["draft", "scheduled", "sending", "paused", "cancelled", "sent", "failed"]),
    created_at: z.string().meta({ description: "ISO 8601" }),
    sent_at: z.string().nullable().meta({ description: "ISO 8601; when sending finished" }),
    stats: broadcastStatsSchema,
    ab_test: z
      .object({
        share: z.number().int(),
        metric: z.enum(["opens", "clicks", "revenue"]),
        decide_after_hours: z.number().int(),
        decide_at: z.string().nullable().meta({ description: "ISO 8601; set when the test share is sent" }),
        winner: z.number().int().nullable().meta({ description: "The winning variant's position (0 is A)" }),
        decided_at: z.string().nullable().meta({ description: "ISO 8601" }),
        decision_note: z.string().nullable().meta({ description: "Why this variant, or why A was kept" }),
        variants: z.array(
          z.object({
            position: z.number().int(),
            subject: z.string(),
            preheader: z.string().nullable(),
            sender_name: z.string().nullable(),
          }),
        ),
      })
      .nullable()
      .meta({
        id: "BroadcastAbTestState",
        description: "The broadcast's A/B test and its decision; null: none.",
      }),
  })
  .meta({ id: "Broadcast" });

export type V1Broadcast = z.output<typeof broadcastSchema>;

/**
 * What create, send and cancel answer: the broadcast, with its counts only for a key that may read them
 * (email:read): `email:write` alone sends mail, it does not read engagement (docs/api.md, "Scopes").
 */
export const writtenBroadcastSchema = broadcastSchema
  .extend({
    stats: broadcastStatsSchema.optional().meta({ description: "Only when the key also holds email:read." }),
  })
  .meta({ id: "BroadcastWritten" });

/** A write's answer: the counts only when the key holds email:read. */
async function writtenBroadcast(
  db: Db,
  key: { scopes: readonly ApiScope[] },
  input: { workspaceId: string; broadcastId: string },
): Promise<z.output<typeof writtenBroadcastSchema>> {
  const { stats, ...broadcast } = await v1Broadcast(db, input);
  return key.scopes.includes("email:read") ? { ...broadcast, stats } : broadcast;
}

/** The broadcast as v1 answers it (GET, and the writes through writtenBroadcast): 404 when it is not the workspace's. */
async function v1Broadcast(
  db: Db,
  input: { workspaceId: string; broadcastId: string },
): Promise<V1Broadcast> {
  const broadcast = await getBroadcast(db, input);
  const stats = broadcast && (await getBroadcastStats(db, input));
  if (!broadcast || !stats) throw new AppError("not_found");
  const ab = await loadAbTest(db, input);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: broadcast.id,
    subject: broadcast.subject,
    body_text: broadcast.body_text,
    status: broadcast.status,
    created_at: new Date(broadcast.created_at).toISOString(),
    sent_at: broadcast.sent_at ? new Date(broadcast.sent_at).toISOString() : null,
    stats,
    ab_test: ab && {
      share: ab.share,
      metric: ab.metric,
      decide_after_hours: ab.decideAfterHours,
      decide_at: iso(ab.decideAt),
      winner: ab.winner,
      decided_at: iso(ab.decidedAt),
      decision_note: ab.note,
      variants: ab.variants,
    },
  };
}

/**
 * GET /api/v1/broadcasts/{id} (scope email:read; docs/api.md, "Email engagement"): the
 * broadcast of the key's workspace and its stats, from the same function as the broadcast's page.
 * Another workspace's id is 404, as a made-up one.
 */
export const get = defineOperation({
  method: "get",
  path: "/api/v1/broadcasts/{id}",
  operationId: "getBroadcast",
  scope: "email:read",
  summary: "A broadcast with its delivery and engagement counts",
  description:
    "Counts are of sends; opened_unique and clicked_unique count the sends with at least one such event. " +
    "Opens and clicks are recorded only when the workspace tracks them.",
  params: idParams,
  success: { status: 200, schema: broadcastSchema, description: "The broadcast" },
  errors: [{ status: 403, codes: ["forbidden"] }, notFound],
  async handler({ db, workspaceId, params }) {
    return ok(await v1Broadcast(db, { workspaceId, broadcastId: params.id }));
  },
});

export const createBroadcastBodySchema = z
  .object({
    subject: composedBroadcastSchema.shape.subject,
    body: composedBroadcastSchema.shape.body.meta({
      description:
        "The message, with merge tags (`{{first_name}}`, `{{unsubscribe_url}}`, …): plain text, or Markdown " +
        "rendered in the workspace's branding (which needs the workspace's postal address to send).",
    }),
    format: z.enum(["text", "markdown"]).default("text"),
    topic_id: uuidSchema
      .optional()
      .meta({ description: "Only the contacts subscribed to this topic; none: every subscribed contact." }),
    segment_id: uuidSchema.optional().meta({
      description: "Only the contacts of this saved segment (the key needs the scopes its conditions read).",
    }),
    variants: z
      .array(
        z
          .object({
            subject: abVariantSchema.shape.subject,
            preheader: z.string().trim().max(200, "Keep the preheader under 200 characters.").optional(),
            sender_name: z.string().trim().max(70, "Keep the sender name under 70 characters.").optional(),
          })
          .strict()
          .meta({ id: "BroadcastVariant" }),
      )
      .min(2, "An A/B test has 2 to 5 variants.")
      .max(5, "An A/B test has 2 to 5 variants.")
      .optional()
      .meta({
        description:
          "An A/B test's 2 to 5 variants of subject, preheader and sender name (the first is A, kept on a tie " +
          "or too few events); needs `ab_test`.",
      }),
    translations: composedBroadcastSchema.shape.translations.meta({
      id: "BroadcastTranslations",
      description:
        "The email in other languages, by code (en, es, fr, de), each `{subject, body}` in the broadcast's `format`: " +
        "a contact whose locale is one of them gets it (es-MX is es), everyone else the broadcast's own. " +
        "Not with an A/B test.",
    }),
    ab_test: z
      .object({
        share: abTestSchema.shape.share.meta({
          description:
            "Percent of the audience (10–50) that gets the variants first, split by a hash of contact and broadcast.",
        }),
        metric: abTestSchema.shape.metric.meta({
          description:
            "What picks the winner: unique human opens, human clicks, or revenue within the window.",
        }),
        decide_after_hours: abTestSchema.shape.decideAfterHours.meta({
          description: "Hours (1–168) after the test share is sent when the winner goes to the rest.",
        }),
      })
      .strict()
      .optional()
      .meta({ id: "BroadcastAbTest", description: "The A/B test's settings; needs `variants`." }),
    from_email: z
      .string()
      .max(254)
      .optional()
      .meta({
        description:
          "The broadcast's own From address, on one of the workspace's verified sending domains (400 `invalid` " +
          "naming `from_email` otherwise); none: the workspace's From.",
      }),
    from_name: fromNameSchema.optional().meta({ description: "The display name beside `from_email`." }),
    reply_to: replyToSchema.optional().meta({
      description:
        "Where replies to this broadcast go (one address; 400 `invalid` naming `reply_to` otherwise); none: " +
        "the workspace's reply-to.",
    }),
  })
  .strict()
  .meta({ id: "BroadcastCreate" });

/**
 * POST /api/v1/broadcasts (scope email:write; DESIGN section 9, "Sending"): a draft, composed as
 * the dashboard composes one; nothing is sent until `send`. The document's example, POSTed as it
 * is and sent, reaches every subscribed contact of the key's workspace.
 */
export const create = defineOperation({
  method: "post",
  path: "/api/v1/broadcasts",
  operationId: "createBroadcast",
  scope: "email:write",
  summary: "Create a broadcast (a draft)",
  description:
    "The audience is every subscribed contact of the workspace, narrowed by `topic_id` and `segment_id`; " +
    "eligibility (consent, suppressions, topics) is checked again for each contact when it is sent.",
  body: createBroadcastBodySchema,
  example: {
    subject: "Our spring programme",
    body: "Hello {{first_name}},\n\nOur spring programme is out: see what is on and book early.\n\nNo longer interested? {{unsubscribe_url}}",
  },
  idempotent: true,
  success: { status: 201, schema: writtenBroadcastSchema, description: "The draft" },
  errors: [...bodyErrors, { status: 403, codes: ["forbidden"] }, idempotencyConflict],
  async handler({ db, key, workspaceId, body, audit }) {
    if (body.variants && !body.ab_test)
      throw new AppError("invalid", "Variants need the test's settings.", { field: "ab_test" });
    if (body.ab_test && !body.variants)
      throw new AppError("invalid", "An A/B test needs 2 to 5 variants.", { field: "variants" });
    if (body.topic_id && !(await topicInWorkspace(db, workspaceId, body.topic_id)))
      throw new AppError("invalid", "No such topic in this workspace.", { field: "topic_id" });
    if (body.segment_id) {
      const segment = await getSegment(db, { workspaceId, segmentId: body.segment_id });
      if ("error" in segment)
        throw new AppError("invalid", "No such segment in this workspace.", { field: "segment_id" });
      requireScopes(key, filterScopes(segment.data.filter));
    }
    // a From of its own only on a verified domain of the workspace (docs/decisions.md, "Sending domains and warm-up")
    const from = body.from_email ? fromAddressOf(body.from_email, "from_email") : null;
    if (from) await refuseUnverifiedFrom(db, workspaceId, from.domain, "from_email");
    const { id } = await createBroadcast(db, {
      workspaceId,
      createdBy: null,
      subject: body.subject,
      body: body.body,
      format: body.format,
      translations: body.translations,
      audience: { topicId: body.topic_id, segmentId: body.segment_id },
      sender: {
        fromName: from ? (body.from_name ?? null) : null,
        fromLocal: from?.local ?? null,
        fromDomain: from?.domain ?? null,
        replyTo: body.reply_to ?? null,
      },
    });
    if (body.variants && body.ab_test)
      await saveAbTest(db, {
        workspaceId,
        broadcastId: id,
        abTest: {
          share: body.ab_test.share,
          metric: body.ab_test.metric,
          decideAfterHours: body.ab_test.decide_after_hours,
          variants: body.variants.map((v) => ({
            subject: v.subject,
            preheader: v.preheader ?? "",
            senderName: v.sender_name ?? "",
          })),
        },
      });
    await audit("broadcast.created", ["broadcast", id], { after: { subject: body.subject } });
    return created(await writtenBroadcast(db, key, { workspaceId, broadcastId: id }));
  },
});

export const sendBroadcastBodySchema = z
  .object({
    at: z.iso.datetime({ offset: true }).optional().meta({
      description: "ISO 8601 with its offset: when to send; none: now. A scheduled broadcast may be moved.",
    }),
  })
  .strict()
  .meta({ id: "BroadcastSend" });

const stateConflict = { status: 409 as const, codes: ["conflict"] };

/**
 * POST /api/v1/broadcasts/{id}/send (scope email:write): a draft starts now (its job is enqueued in
 * the same transaction), or is scheduled for `at`; a scheduled one is moved. Any other state is 409.
 */
export const send = defineOperation({
  method: "post",
  path: "/api/v1/broadcasts/{id}/send",
  operationId: "sendBroadcast",
  scope: "email:write",
  summary: "Send a broadcast now, or schedule it",
  params: idParams,
  body: sendBroadcastBodySchema,
  idempotent: true,
  success: {
    status: 200,
    schema: writtenBroadcastSchema,
    description: "The broadcast, sending or scheduled",
  },
  errors: [
    ...bodyErrors,
    { status: 403, codes: ["forbidden"] },
    notFound,
    stateConflict,
    idempotencyConflict,
  ],
  async handler({ db, key, workspaceId, params, body, audit }) {
    const input = { workspaceId, broadcastId: params.id };
    const before = await v1Broadcast(db, input);
    const at = body.at ? new Date(body.at) : null;
    if (at && at.getTime() <= Date.now())
      throw new AppError("invalid", "Choose a time in the future.", { field: "at" });
    const changed = at
      ? await scheduleBroadcast(db, { ...input, at })
      : await controlBroadcast(db, { ...input, control: "start" });
    if (!changed)
      throw new AppError("conflict", `The broadcast is ${before.status}: only a draft can be sent.`);
    await audit(at ? "broadcast.scheduled" : "broadcast.started", ["broadcast", params.id], {
      before: { status: before.status },
      after: at ? { status: "scheduled", scheduled_at: at.toISOString() } : { status: "sending" },
    });
    return ok(await writtenBroadcast(db, key, input));
  },
});

/**
 * POST /api/v1/broadcasts/{id}/cancel (scope email:write): a draft, scheduled, sending or paused
 * broadcast is cancelled (a running job stops before its next batch; what was sent stays sent).
 */
export const cancel = defineOperation({
  method: "post",
  path: "/api/v1/broadcasts/{id}/cancel",
  operationId: "cancelBroadcast",
  scope: "email:write",
  summary: "Cancel a broadcast",
  params: idParams,
  success: { status: 200, schema: writtenBroadcastSchema, description: "The broadcast, cancelled" },
  errors: [{ status: 403, codes: ["forbidden"] }, notFound, stateConflict],
  async handler({ db, key, workspaceId, params, audit }) {
    const input = { workspaceId, broadcastId: params.id };
    const before = await v1Broadcast(db, input);
    if (!(await controlBroadcast(db, { ...input, control: "cancel" })))
      throw new AppError("conflict", `The broadcast is ${before.status}: it can no longer be cancelled.`);
    await audit("broadcast.cancelled", ["broadcast", params.id], {
      before: { status: before.status },
      after: { status: "cancelled" },
    });
    return ok(await writtenBroadcast(db, key, input));
  },
});
