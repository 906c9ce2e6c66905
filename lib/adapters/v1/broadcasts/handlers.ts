import { AppError } from "@/lib/errors/app-error";
import { getBroadcastStats } from "@/lib/email/broadcast-stats";
import { getBroadcast } from "@/lib/email/broadcasts";
import { apiOperation, ok } from "../route";
import { broadcastIdParams, type V1Broadcast } from "./schemas";

/**
 * GET /api/v1/broadcasts/{id} (scope email:read; docs/api.md, "Email engagement"): the
 * broadcast of the key's workspace and its stats, from the same function as the broadcast's page.
 * Another workspace's id is 404, as a made-up one.
 */
export const getBroadcastOperation = apiOperation(
  { name: "getBroadcast", scope: "email:read", params: broadcastIdParams },
  async ({ db, workspaceId, params }) => {
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
);
