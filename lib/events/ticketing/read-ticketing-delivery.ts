import type { Db } from "@/lib/db/doors";
import type { InboxRow } from "@/lib/webhooks/inbox";

export interface TicketingDeliveryToFetch {
  row: InboxRow;
  /** The connection the delivery was accepted for, or null when it has since been removed. */
  connection: { workspace_id: string; access_token: string } | null;
}

/**
 * Before the provider is called: the stored delivery when it is still to do (pending, failed, or
 * left 'processing' by a crash), with its connection's token. Takes no lock: the write
 * transaction that follows the fetch claims the row and re-checks.
 */
export async function readTicketingDelivery(db: Db, id: string): Promise<TicketingDeliveryToFetch | null> {
  const [row] = await db<(InboxRow & { workspace_id: string })[]>`
    select id, provider, event_id, event_type, workspace_id, payload, attempts
    from public.webhook_inbox
    where id = ${id} and provider = 'ticketing' and status in ('pending', 'failed', 'processing')`;
  if (!row) return null;
  const webhookId = String((row.payload.config as { webhook_id: string | number }).webhook_id);
  const [connection] = await db<{ workspace_id: string; access_token: string }[]>`
    select workspace_id, access_token from public.ticketing_connections
    where webhook_id = ${webhookId} and workspace_id = ${row.workspace_id}`;
  return { row, connection: connection ?? null };
}

/** Whether the workspace has the event already (else the order's event is fetched too). */
export async function isTicketingEventKnown(
  db: Db,
  input: { workspaceId: string; externalEventId: string },
): Promise<boolean> {
  const [known] = await db`
    select 1 from public.events
    where workspace_id = ${input.workspaceId} and external_event_id = ${input.externalEventId}`;
  return Boolean(known);
}
