import type { Db } from "@/lib/db/doors";
import type { EventRow } from "./event-row";
import { refused, type Result } from "@/lib/errors/app-error";

export interface EventRegistrationItem {
  id: string;
  contact_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  /** spec 2.8's 'registered' and 'cancelled', and the waitlist's 'waitlisted' and 'offered' */
  status: "registered" | "cancelled" | "waitlisted" | "offered";
  /** the ticket type's name (docs/decisions.md, "Ticket types"); null without one */
  ticket_type_name?: string | null;
  waitlist_position?: string | null;
  offer_expires_at?: Date | null;
  amount_paid: string;
  external_attendee_id: string | null;
  created_at: Date;
  /** when checked in at the event (docs/decisions.md, "Segments": attendance); null: not attended */
  checked_in_at: Date | null;
}

/** An event of the workspace with its registrations (newest first), for the event page. */
export async function getEventById(
  db: Db,
  input: { workspaceId: string; eventId: string },
): Promise<Result<{ event: EventRow; registrations: EventRegistrationItem[] }>> {
  const [event] = await db<EventRow[]>`
    select * from public.events where id = ${input.eventId} and workspace_id = ${input.workspaceId}`;
  if (!event) return refused("not_found", "This event does not exist.");
  const registrations = await db<EventRegistrationItem[]>`
    select r.id, r.contact_id, c.email, c.first_name, c.last_name, r.status, r.amount_paid,
           r.external_attendee_id, r.created_at, r.checked_in_at, t.name as ticket_type_name,
           r.waitlist_position, r.offer_expires_at
    from public.event_registrations r join public.contacts c on c.id = r.contact_id
    left join public.event_ticket_types t on t.id = r.ticket_type_id and t.workspace_id = r.workspace_id
    where r.event_id = ${event.id}
    order by r.created_at desc, r.id`;
  return { data: { event, registrations } };
}
