import { createHash, randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/doors";
import { storeDelivery } from "@/lib/webhooks/inbox";
import type { TicketingAction } from "../eventbrite/types";

/** Most deliveries kept unprocessed per connection (docs/decisions.md, "The ticketing webhook"). */
export const TICKETING_INBOX_CAP = 500;

export type StoreResult =
  { stored: true; inboxId: string | null; duplicate: boolean } | { stored: false; full: true };

/**
 * Keeps an accepted ticketing delivery in the inbox (docs/decisions.md, "The webhook inbox"), deduplicated
 * and capped per connection (docs/decisions.md, "The ticketing webhook"):
 * - order.placed happens once per order: a replay (same webhook, action and api_url) is a
 *   duplicate of the stored row, whatever its state.
 * - order.refunded and attendee.updated recur for the same object (a second refund), and
 *   processing re-reads Eventbrite's current state, so a delivery is a duplicate while another
 *   of the same action on the same object still waits ('pending'); once that one is processing
 *   or done, a new one is kept (it may carry a later change).
 * - when the connection already has TICKETING_INBOX_CAP deliveries not yet done, nothing is
 *   kept and the caller answers 429 (Eventbrite delivers again later).
 * A transaction-scoped advisory lock per workspace makes the check and the insert one step.
 */
export async function storeTicketingDelivery(
  db: Db,
  input: {
    workspaceId: string;
    webhookId: string;
    action: TicketingAction;
    apiUrl: string;
    payload: unknown;
  },
): Promise<StoreResult> {
  const key = createHash("sha256").update(`${input.webhookId}|${input.action}|${input.apiUrl}`).digest("hex");
  const [state] = await db`
    select pg_advisory_xact_lock(hashtextextended('ticketing-inbox:' || ${input.workspaceId}, 0)) is not null as locked,
           (select count(*)::int from public.webhook_inbox
            where provider = 'ticketing' and workspace_id = ${input.workspaceId}
              and status in ('pending', 'processing', 'failed')) as unprocessed,
           (select id from public.webhook_inbox
            where provider = 'ticketing' and workspace_id = ${input.workspaceId} and status = 'pending'
              and event_type = ${input.action} and payload->>'api_url' = ${input.apiUrl}
            limit 1) as queued`;
  if (input.action !== "order.placed" && state.queued)
    return { stored: true, inboxId: null, duplicate: true };
  if (state.unprocessed >= TICKETING_INBOX_CAP) return { stored: false, full: true };
  const stored = await storeDelivery(db, {
    provider: "ticketing",
    eventId: input.action === "order.placed" ? key : `${key}:${randomUUID()}`,
    eventType: input.action,
    payload: input.payload,
    workspaceId: input.workspaceId,
  });
  return { stored: true, inboxId: stored.duplicate ? null : stored.id, duplicate: stored.duplicate };
}
