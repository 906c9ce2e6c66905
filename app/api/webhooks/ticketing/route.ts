import { after } from "next/server";
import { withService } from "@/lib/db/doors";
import { acceptTicketingDelivery } from "@/lib/events/ticketing/accept-ticketing-delivery";
import {
  processPendingTicketingDeliveries,
  processTicketingDelivery,
} from "@/lib/events/ticketing/process-ticketing-deliveries";
import { jsonError } from "@/lib/http/error-envelope";
import { readLimitedText, WEBHOOK_BODY_LIMIT } from "@/lib/http/read-limited-body";

/**
 * POST /api/webhooks/ticketing (spec 4.5, DESIGN 4): the delivery is checked and kept in the
 * inbox, the answer is 200 at once, and the processing runs after the answer, followed by a
 * retry of whatever earlier deliveries were left undone.
 */
export async function POST(request: Request) {
  const read = await readLimitedText(request, WEBHOOK_BODY_LIMIT);
  if ("error" in read) return jsonError(read.status, read.error);
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch {
    return jsonError(400, "Send JSON.");
  }
  const secret = new URL(request.url).searchParams.get("secret");
  const result = await withService((db) => acceptTicketingDelivery(db, { body, secret }));
  if (result.status !== 200) return jsonError(result.status, result.error);
  after(async () => {
    if (result.inboxId) await processTicketingDelivery(result.inboxId);
    await processPendingTicketingDeliveries();
  });
  return Response.json({ ok: true, duplicate: result.duplicate });
}
