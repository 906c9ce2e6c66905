import { withService } from "@/lib/db/doors";
import { acceptTicketingDelivery } from "@/lib/events/ticketing/accept-ticketing-delivery";
import { enqueueTicketingDelivery } from "@/lib/events/ticketing/enqueue-ticketing-delivery";

const MAX_BYTES = 64 * 1024;

/**
 * POST /api/webhooks/ticketing (spec 4.5, DESIGN 4): the delivery is checked and kept in the
 * inbox together with its job (in one transaction), the answer is 200 at once, and a worker
 * processes it, retrying with backoff (issue 14).
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
  const result = await withService(async (db) => {
    const accepted = await acceptTicketingDelivery(db, body);
    if (accepted.status === 200 && accepted.inboxId) await enqueueTicketingDelivery(db, accepted.inboxId);
    return accepted;
  });
  if (result.status !== 200)
    return Response.json({ ok: false, error: result.error }, { status: result.status });
  return Response.json({ ok: true, duplicate: result.duplicate });
}
