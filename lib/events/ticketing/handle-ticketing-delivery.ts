import type { Db } from "@/lib/db/doors";
import type { InboxRow } from "@/lib/webhooks/inbox";
import type { FetchedTicketingDelivery } from "./flows/fetch-ticketing-delivery";
import { handleAttendeeUpdated } from "./handle-attendee-updated";
import { handleOrderPlaced } from "./handle-order-placed";
import { handleOrderRefunded } from "./handle-order-refunded";
import { resolveTicketingEvent } from "./resolve-ticketing-event";

export interface DeliveryOutcome {
  status: "done" | "ignored";
  detail: Record<string, unknown>;
}

/**
 * Applies one kept delivery (spec 4.5) with what Eventbrite answered (fetched before this
 * transaction). The connection is read again here: a delivery whose connection was removed
 * meanwhile is ignored.
 */
export async function handleTicketingDelivery(
  db: Db,
  row: InboxRow,
  fetched: FetchedTicketingDelivery,
): Promise<DeliveryOutcome> {
  const webhookId = String((row.payload.config as { webhook_id: string | number }).webhook_id);
  const [connection] = await db`
    select workspace_id, auto_subscribe_attendees from public.ticketing_connections
    where webhook_id = ${webhookId} and workspace_id = ${row.workspace_id}`;
  if (!connection) return { status: "ignored", detail: { reason: "connection removed" } };
  const { workspace_id: workspaceId, auto_subscribe_attendees: autoSubscribe } = connection;

  switch (fetched.action) {
    case "order.placed": {
      const { order } = fetched;
      const eventId = await resolveTicketingEvent(db, {
        workspaceId,
        externalEventId: String(order.event_id),
        fetched: fetched.event,
      });
      return {
        status: "done",
        detail: { ...(await handleOrderPlaced(db, { workspaceId, eventId, autoSubscribe, order })) },
      };
    }
    case "order.refunded":
      return { status: "done", detail: await handleOrderRefunded(db, { workspaceId, order: fetched.order }) };
    case "attendee.updated": {
      const result = await handleAttendeeUpdated(db, {
        workspaceId,
        autoSubscribe,
        attendee: fetched.attendee,
      });
      return { status: result.outcome === "unknown_attendee" ? "ignored" : "done", detail: result };
    }
    default:
      return { status: "ignored", detail: { reason: fetched.reason } };
  }
}
