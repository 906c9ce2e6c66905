import { withService } from "@/lib/db/doors";
import { ingestEmailEvent, type EmailEvent } from "@/lib/email/ingest-email-event";
import { verifyWebhook } from "@/lib/email/webhook-signature";
import { jsonError } from "@/lib/http/error-envelope";
import { readLimitedText, WEBHOOK_BODY_LIMIT } from "@/lib/http/read-limited-body";

/** Resend's bounce and complaint webhook (spec 6.1), verified with RESEND_WEBHOOK_SECRET. */
export async function POST(request: Request) {
  const secret = process.env.RESEND_WEBHOOK_SECRET;
  if (!secret) return jsonError(503, "Email webhook is not configured.");
  const read = await readLimitedText(request, WEBHOOK_BODY_LIMIT);
  if ("error" in read) return jsonError(read.status, read.error);
  const body = read.text;
  const headers = {
    id: request.headers.get("svix-id"),
    timestamp: request.headers.get("svix-timestamp"),
    signature: request.headers.get("svix-signature"),
  };
  const verified = verifyWebhook(secret, headers, body);
  if (!verified.ok) return jsonError(401, `Invalid signature: ${verified.reason}.`);
  let event: EmailEvent;
  try {
    event = JSON.parse(body);
  } catch {
    return jsonError(400, "Body is not JSON.");
  }
  if (!event || typeof event !== "object" || typeof event.type !== "string")
    return jsonError(400, "Event has no type.");
  const result = await withService((db) => ingestEmailEvent(db, { eventId: headers.id!, event }));
  return Response.json({ received: true, ...result });
}
