import { createHash, randomUUID } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { storeDelivery } from "@/lib/webhooks/inbox";
import { eventbriteApiBase, isEventbriteApiUrl } from "../eventbrite/client";
import { TICKETING_ACTIONS, type TicketingAction } from "../eventbrite/types";

const deliverySchema = z.object({
  api_url: z.string().min(1).max(2000),
  config: z.object({
    action: z.string().min(1).max(100),
    webhook_id: z.union([z.string().min(1).max(100), z.number().int()]).transform(String),
  }),
});

export type AcceptResult =
  { status: 200; inboxId: string | null; duplicate: boolean } | { status: 400 | 403; error: string };

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
 * POST /api/webhooks/ticketing, before the answer (DESIGN 4): Eventbrite deliveries carry no
 * signature, so one is accepted only when its config.webhook_id is a stored connection's
 * webhook and its api_url points at the configured Eventbrite API (at an order, or an
 * attendee for attendee.updated). It is then kept in the durable inbox; processing happens
 * after the answer and re-reads the object from Eventbrite with that connection's token.
 *
 * Inbox key: order.placed happens once per order, so a replay of it is a duplicate
 * (sha256 of webhook id, action and api_url). order.refunded and attendee.updated recur for
 * the same order or attendee (a second refund, a second change), so every delivery of them is
 * kept; processing them is idempotent because it compares Eventbrite's current state with the
 * stored one.
 */
export async function acceptTicketingDelivery(db: Db, body: unknown): Promise<AcceptResult> {
  const parsed = deliverySchema.safeParse(body);
  if (!parsed.success) return { status: 400, error: "Not an Eventbrite webhook delivery." };
  const { api_url: apiUrl, config } = parsed.data;

  const [connection] = await db`
    select workspace_id from public.ticketing_connections where webhook_id = ${config.webhook_id}`;
  if (!connection) return { status: 403, error: "Unknown webhook." };
  if (!isEventbriteApiUrl(apiUrl)) return { status: 403, error: "The api_url is not the Eventbrite API." };

  const action = config.action as TicketingAction;
  // Eventbrite's 'test' ping and actions this service did not subscribe to: acknowledged, not kept.
  if (!TICKETING_ACTIONS.includes(action)) return { status: 200, inboxId: null, duplicate: false };
  if (!RESOURCE[action].test(resourcePath(apiUrl)))
    return { status: 400, error: `The api_url does not point at the object of ${action}.` };

  const key = createHash("sha256").update(`${config.webhook_id}|${action}|${apiUrl}`).digest("hex");
  const stored = await storeDelivery(db, {
    provider: "ticketing",
    eventId: action === "order.placed" ? key : `${key}:${randomUUID()}`,
    eventType: action,
    payload: { api_url: apiUrl, config },
    workspaceId: connection.workspace_id,
  });
  return { status: 200, inboxId: stored.duplicate ? null : stored.id, duplicate: stored.duplicate };
}
