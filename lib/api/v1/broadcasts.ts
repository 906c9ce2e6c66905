import { z } from "zod";
import { getBroadcastStats } from "@/lib/email/broadcast-stats";
import { getBroadcast } from "@/lib/email/broadcasts";
import { AppError } from "@/lib/errors/app-error";
import { uuidSchema } from "@/lib/ids/uuid";
import { defineOperation, notFound } from "./define";
import { idParams } from "./keyset";
import { ok } from "./route";

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
  })
  .meta({ id: "Broadcast" });

export type V1Broadcast = z.output<typeof broadcastSchema>;

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
    const input = { workspaceId, broadcastId: params.id };
    const broadcast = await getBroadcast(db, input);
    const stats = broadcast && (await getBroadcastStats(db, input));
    if (!broadcast || !stats) throw new AppError("not_found");
    const body: V1Broadcast = {
      id: broadcast.id,
      subject: broadcast.subject,
      body_text: broadcast.body_text,
      status: broadcast.status,
      created_at: new Date(broadcast.created_at).toISOString(),
      sent_at: broadcast.sent_at ? new Date(broadcast.sent_at).toISOString() : null,
      stats,
    };
    return ok(body);
  },
});
