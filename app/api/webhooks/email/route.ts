import { publicRoute } from "@/lib/adapters/public-route";
import { withService } from "@/lib/db/doors";
import { ingestEmailEvent, type EmailEvent } from "@/lib/email/ingest-email-event";
import { verifyWebhook } from "@/lib/email/webhook-signature";
import { AppError } from "@/lib/errors/app-error";
import { parseJson } from "@/lib/http/parse-json";
import { readLimitedText, WEBHOOK_BODY_LIMIT } from "@/lib/http/read-limited-body";

/**
 * Resend's email events (spec 6.1 bounces and complaints; docs/api.md, "Email engagement":
 * deliveries, delays, opens, clicks), verified with RESEND_WEBHOOK_SECRET as Svix signs them.
 */
export const POST = publicRoute({ name: "email webhook" }, async (request) => {
  const secret = process.env.RESEND_WEBHOOK_SECRET;
  if (!secret) throw new AppError("unavailable", "Email webhook is not configured.");
  const body = await readLimitedText(request, WEBHOOK_BODY_LIMIT);
  const headers = {
    id: request.headers.get("svix-id"),
    timestamp: request.headers.get("svix-timestamp"),
    signature: request.headers.get("svix-signature"),
  };
  const verified = verifyWebhook(secret, headers, body);
  if (!verified.ok) throw new AppError("unauthenticated", `Invalid signature: ${verified.reason}.`);
  const parsed = parseJson(body);
  if (!parsed) throw new AppError("invalid", "Body is not JSON.");
  const event = parsed.value as EmailEvent;
  if (!event || typeof event !== "object" || typeof event.type !== "string")
    throw new AppError("invalid", "Event has no type.");
  const result = await withService((db) => ingestEmailEvent(db, { eventId: headers.id!, event }));
  return Response.json({ received: true, ...result });
});
