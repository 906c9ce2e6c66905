import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { eventbriteApiBase, isEventbriteApiUrl } from "../eventbrite/client";
import { TICKETING_ACTIONS, type TicketingAction } from "../eventbrite/types";
import { storeTicketingDelivery } from "./store-ticketing-delivery";
import { webhookSecretMatches } from "./webhook-secret";

const deliverySchema = z.object({
  api_url: z.string().min(1).max(2000),
  config: z.object({
    action: z.string().min(1).max(100),
    webhook_id: z.union([z.string().min(1).max(100), z.number().int()]).transform(String),
  }),
});

/** A delivery accepted: kept in the inbox (or a duplicate of one kept), or acknowledged only (null). */
export type AcceptResult =
  { accepted: true; inboxId: string | null; duplicate: boolean } | { accepted: false; error: AppError };

/** Every refusal of a delivery: one code, one body (docs/decisions.md, "The ticketing webhook"). */
export const REFUSED_MESSAGE = "This delivery is not accepted.";
const refused = (code: "invalid" | "forbidden" | "rate_limited", message: string): AcceptResult => ({
  accepted: false,
  error: new AppError(code, message),
});

/** The path each action's api_url must have under the API base. */
const RESOURCE: Record<TicketingAction, RegExp> = {
  "order.placed": /^\/orders\/[A-Za-z0-9_-]+\/?$/,
  "order.refunded": /^\/orders\/[A-Za-z0-9_-]+\/?$/,
  "attendee.updated": /^\/events\/[A-Za-z0-9_-]+\/attendees\/[A-Za-z0-9_-]+\/?$/,
};

function resourcePath(apiUrl: string): string {
  const base = new URL(eventbriteApiBase()).pathname.replace(/\/+$/, "");
  return new URL(apiUrl).pathname.slice(base.length);
}

/**
 * POST /api/webhooks/ticketing, before the answer (docs/decisions.md, "The ticketing webhook"): Eventbrite
 * deliveries carry no signature, so one is accepted only when its config.webhook_id names a stored
 * connection, the `?secret=` of the registered endpoint matches that connection's digest (constant time)
 * and its api_url points at the configured Eventbrite API. An unknown id, a wrong or missing
 * secret and a foreign api_url get the same refusal, so webhook ids cannot be enumerated.
 * Only then is the delivery's shape judged and the delivery kept (storeTicketingDelivery:
 * deduplicated, capped per connection); processing re-reads the object from Eventbrite with
 * that connection's token.
 */
export async function acceptTicketingDelivery(
  db: Db,
  input: { body: unknown; secret: string | null },
): Promise<AcceptResult> {
  const parsed = deliverySchema.safeParse(input.body);
  if (!parsed.success) return refused("invalid", "Not an Eventbrite webhook delivery.");
  const { api_url: apiUrl, config } = parsed.data;

  const [connection] = await db`
    select workspace_id, webhook_secret_hash from public.ticketing_connections
    where webhook_id = ${config.webhook_id}`;
  const secretOk = webhookSecretMatches(input.secret, connection?.webhook_secret_hash ?? null);
  if (!connection || !secretOk || !isEventbriteApiUrl(apiUrl)) return refused("forbidden", REFUSED_MESSAGE);

  const action = config.action as TicketingAction;
  // Eventbrite's 'test' ping and actions this service did not subscribe to: acknowledged, not kept.
  if (!TICKETING_ACTIONS.includes(action)) return { accepted: true, inboxId: null, duplicate: false };
  if (!RESOURCE[action].test(resourcePath(apiUrl)))
    return refused("invalid", `The api_url does not point at the object of ${action}.`);

  const stored = await storeTicketingDelivery(db, {
    workspaceId: connection.workspace_id,
    webhookId: config.webhook_id,
    action,
    apiUrl,
    payload: { api_url: apiUrl, config },
  });
  if (!stored.stored) return refused("rate_limited", "Too many deliveries are waiting; deliver again later.");
  return { accepted: true, inboxId: stored.inboxId, duplicate: stored.duplicate };
}
