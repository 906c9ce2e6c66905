import type { Db } from "@/lib/db/doors";
import type { InboxRow } from "@/lib/webhooks/inbox";
import { getAttendeeAt, getOrderAt } from "../eventbrite/client";
import type { EbWebhookDelivery } from "../eventbrite/types";
import { handleAttendeeUpdated } from "./handle-attendee-updated";
import { handleOrderPlaced } from "./handle-order-placed";
import { handleOrderRefunded } from "./handle-order-refunded";
import { resolveTicketingEvent } from "./resolve-ticketing-event";

export interface DeliveryOutcome {
  status: "done" | "ignored";
  detail: Record<string, unknown>;
}

/**
 * Processes one kept delivery (spec 4.5): finds the connection it was accepted for, re-reads
 * the object from Eventbrite with that connection's token, and applies the action.
 * A delivery whose connection has since been removed is ignored.
 */
export async function handleTicketingDelivery(db: Db, row: InboxRow): Promise<DeliveryOutcome> {
  const delivery = row.payload as unknown as EbWebhookDelivery;
  const [connection] = await db`
    select workspace_id, access_token, auto_subscribe_attendees from public.ticketing_connections
    where webhook_id = ${String(delivery.config.webhook_id)} and workspace_id = ${row.workspace_id}`;
  if (!connection) return { status: "ignored", detail: { reason: "connection removed" } };
  const {
    workspace_id: workspaceId,
    access_token: token,
    auto_subscribe_attendees: autoSubscribe,
  } = connection;

  switch (row.event_type) {
    case "order.placed": {
      const order = await getOrderAt(token, delivery.api_url);
      const eventId = await resolveTicketingEvent(db, {
        workspaceId,
        token,
        externalEventId: String(order.event_id),
      });
      return {
        status: "done",
        detail: { ...(await handleOrderPlaced(db, { workspaceId, eventId, autoSubscribe, order })) },
      };
    }
    case "order.refunded": {
      const order = await getOrderAt(token, delivery.api_url);
      return { status: "done", detail: await handleOrderRefunded(db, { workspaceId, order }) };
    }
    case "attendee.updated": {
      const attendee = await getAttendeeAt(token, delivery.api_url);
      const result = await handleAttendeeUpdated(db, { workspaceId, autoSubscribe, attendee });
      return { status: result.outcome === "unknown_attendee" ? "ignored" : "done", detail: result };
    }
    default:
      return { status: "ignored", detail: { reason: `unhandled action ${row.event_type}` } };
  }
}
