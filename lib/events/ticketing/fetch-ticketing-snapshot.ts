import { listEventAttendees, listOrganizationEvents } from "../eventbrite/client";
import { mapEvent, type ImportedEvent } from "../eventbrite/map-event";
import { ticketHolder, type TicketHolder } from "../eventbrite/map-attendee";

export interface TicketingSnapshot {
  events: ImportedEvent[];
  holders: TicketHolder[];
}

/**
 * Reads what a sync imports from Eventbrite (spec 4.5 and 2.7: import and sync): the
 * organisation's events with their ticket classes, and every attendee of each event with
 * the buyer's details for blank attendee emails. Only HTTP, no database: the caller writes
 * the snapshot in one short transaction.
 */
export async function fetchTicketingSnapshot(
  token: string,
  organizationId: string,
): Promise<TicketingSnapshot> {
  const events = await listOrganizationEvents(token, organizationId);
  const holders: TicketHolder[] = [];
  for (const event of events) {
    for (const attendee of await listEventAttendees(token, String(event.id))) {
      const holder = ticketHolder({ ...attendee, event_id: attendee.event_id ?? String(event.id) });
      if (holder) holders.push(holder);
    }
  }
  return { events: events.map(mapEvent), holders };
}
