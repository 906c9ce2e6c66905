import { withService } from "@/lib/db/doors";
import { getAttendeeAt, getEvent, getOrderAt } from "../../eventbrite/client";
import type { EbAttendee, EbEvent, EbOrder, EbWebhookDelivery } from "../../eventbrite/types";
import { isTicketingEventKnown, type TicketingDeliveryToFetch } from "../read-ticketing-delivery";

/** What Eventbrite answered for one delivery, read before any transaction is opened. */
export type FetchedTicketingDelivery =
  | { action: "order.placed"; order: EbOrder; event: EbEvent | null }
  | { action: "order.refunded"; order: EbOrder }
  | { action: "attendee.updated"; attendee: EbAttendee }
  | { action: "ignored"; reason: string };

/**
 * Spec 4.5 step 1 for every action: re-reads the object the delivery points at with the
 * connection's token, outside any database transaction (a slow or failing Eventbrite never
 * holds a lock). For an order of an event the workspace does not have yet, the event is
 * fetched as well, after a short read that says so.
 */
export async function fetchTicketingDelivery(
  found: TicketingDeliveryToFetch,
): Promise<FetchedTicketingDelivery> {
  const { row, connection } = found;
  if (!connection) return { action: "ignored", reason: "connection removed" };
  const delivery = row.payload as unknown as EbWebhookDelivery;
  const token = connection.access_token;
  switch (row.event_type) {
    case "order.placed": {
      const order = await getOrderAt(token, delivery.api_url);
      const externalEventId = String(order.event_id);
      const known = await withService((db) =>
        isTicketingEventKnown(db, { workspaceId: connection.workspace_id, externalEventId }),
      );
      return { action: "order.placed", order, event: known ? null : await getEvent(token, externalEventId) };
    }
    case "order.refunded":
      return { action: "order.refunded", order: await getOrderAt(token, delivery.api_url) };
    case "attendee.updated":
      return { action: "attendee.updated", attendee: await getAttendeeAt(token, delivery.api_url) };
    default:
      return { action: "ignored", reason: `unhandled action ${row.event_type}` };
  }
}
