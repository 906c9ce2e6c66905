import { withService } from "@/lib/db/doors";
import { ingestEmailEvent, type EmailEvent } from "@/lib/email/ingest-email-event";
import { verifyWebhook } from "@/lib/email/webhook-signature";

const MAX_BODY = 256 * 1024;

/** Resend's bounce and complaint webhook (spec 6.1), verified with RESEND_WEBHOOK_SECRET. */
export async function POST(request: Request) {
  const secret = process.env.RESEND_WEBHOOK_SECRET;
  if (!secret) return Response.json({ error: "Email webhook is not configured." }, { status: 503 });
  const body = await request.text();
  if (body.length > MAX_BODY) return Response.json({ error: "Body too large." }, { status: 413 });
  const headers = {
    id: request.headers.get("svix-id"),
    timestamp: request.headers.get("svix-timestamp"),
    signature: request.headers.get("svix-signature"),
  };
  const verified = verifyWebhook(secret, headers, body);
  if (!verified.ok)
    return Response.json({ error: `Invalid signature: ${verified.reason}.` }, { status: 401 });
  let event: EmailEvent;
  try {
    event = JSON.parse(body);
  } catch {
    return Response.json({ error: "Body is not JSON." }, { status: 400 });
  }
  if (!event || typeof event !== "object" || typeof event.type !== "string")
    return Response.json({ error: "Event has no type." }, { status: 400 });
  const result = await withService((db) => ingestEmailEvent(db, { eventId: headers.id!, event }));
  return Response.json({ received: true, ...result });
}
