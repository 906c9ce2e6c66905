import { z } from "zod";
import { uuidField, uuidSchema } from "@/lib/ids/uuid";
import type { ApiOperation } from "../operation";

export const broadcastIdParams = z.object({ id: uuidField("Not a valid id.") });

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

/** The broadcasts operations, for the OpenAPI document. */
export const broadcastOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/v1/broadcasts/{id}",
    operationId: "getBroadcast",
    scope: "email:read",
    summary: "A broadcast with its delivery and engagement counts",
    description:
      "Counts are of sends; opened_unique and clicked_unique count the sends with at least one such event. " +
      "Opens and clicks are recorded only when the workspace tracks them.",
    params: broadcastIdParams,
    success: { status: 200, schema: broadcastSchema, description: "The broadcast" },
    errors: [
      { status: 403, codes: ["forbidden"] },
      { status: 404, codes: ["not_found"] },
    ],
  },
];
