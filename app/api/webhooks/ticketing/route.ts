import { publicRoute } from "@/lib/adapters/public-route";
import { withService } from "@/lib/db/doors";
import { acceptTicketingDelivery } from "@/lib/events/ticketing/accept-ticketing-delivery";
import { enqueueTicketingDelivery } from "@/lib/events/ticketing/enqueue-ticketing-delivery";
import { AppError } from "@/lib/errors/app-error";
import { parseJson } from "@/lib/http/parse-json";
import { readLimitedText, WEBHOOK_BODY_LIMIT } from "@/lib/http/read-limited-body";

/**
 * POST /api/webhooks/ticketing (spec 4.5; docs/decisions.md, "The ticketing webhook"): the delivery is
 * checked and kept in the inbox together with its job (in one transaction), the answer is 200 at once, and a
 * worker processes it, retrying with backoff (docs/decisions.md, "Ticketing processing and sync").
 */
export const POST = publicRoute({ name: "ticketing webhook" }, async (request) => {
  const parsed = parseJson(await readLimitedText(request, WEBHOOK_BODY_LIMIT));
  if (!parsed) throw new AppError("invalid", "Send JSON.");
  const secret = new URL(request.url).searchParams.get("secret");
  const result = await withService(async (db) => {
    const accepted = await acceptTicketingDelivery(db, { body: parsed.value, secret });
    if (accepted.accepted && accepted.inboxId) await enqueueTicketingDelivery(db, accepted.inboxId);
    return accepted;
  });
  if (!result.accepted) throw result.error;
  return Response.json({ ok: true, duplicate: result.duplicate });
});
