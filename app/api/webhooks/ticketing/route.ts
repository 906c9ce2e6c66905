import { after } from "next/server";
import { withService } from "@/lib/db/doors";
import { acceptTicketingDelivery } from "@/lib/events/ticketing/accept-ticketing-delivery";
import {
  processPendingTicketingDeliveries,
  processTicketingDelivery,
} from "@/lib/events/ticketing/process-ticketing-deliveries";

const MAX_BYTES = 64 * 1024;

/**
 * POST /api/webhooks/ticketing (spec 4.5, DESIGN 4): the delivery is checked and kept in the
 * inbox, the answer is 200 at once, and the processing runs after the answer, followed by a
 * retry of whatever earlier deliveries were left undone.
 */
export async function POST(request: Request) {
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BYTES)
    return Response.json({ ok: false, error: "The request body is too large." }, { status: 413 });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return Response.json({ ok: false, error: "Send JSON." }, { status: 400 });
  }
  const result = await withService((db) => acceptTicketingDelivery(db, body));
  if (result.status !== 200)
    return Response.json({ ok: false, error: result.error }, { status: result.status });
  after(async () => {
    if (result.inboxId) await processTicketingDelivery(result.inboxId);
    await processPendingTicketingDeliveries();
  });
  return Response.json({ ok: true, duplicate: result.duplicate });
}
