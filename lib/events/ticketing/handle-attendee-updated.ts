import type { Db } from "@/lib/db/doors";
import { fireTrigger } from "@/lib/automations/fire-trigger";
import { ticketHolder } from "../eventbrite/map-attendee";
import type { EbAttendee } from "../eventbrite/types";
import { cancelEnrollmentsWithoutTicket } from "./cancel-enrollments-without-ticket";
import { upsertTicketingContact } from "./upsert-ticketing-contact";

export type AttendeeUpdatedResult =
  | { outcome: "transferred"; fromContactId: string; toContactId: string }
  | { outcome: "updated"; contactId: string }
  | { outcome: "unknown_attendee" };

/**
 * Spec 4.5 attendee.updated and 3.2 'registered → registered', given the attendee fetched
 * from Eventbrite:
 * - the ticket's email differs from the registered contact's (a transfer): the contact of
 *   the new email is created (or merged), the registration re-pointed to it, the
 *   event_registration automations fired, and it is auto-subscribed when the connection says so;
 *   the previous holder's enrollments for the event are cancelled when it has no ticket left
 *   (the rule of 3.2 for a refund: the ticket is no longer theirs);
 * - the same email: only the details changed, merged with diff-and-audit (4.10).
 * An attendee not stored yet is left to its order.placed, which reads the current details.
 */
export async function handleAttendeeUpdated(
  db: Db,
  input: { workspaceId: string; autoSubscribe: boolean; attendee: EbAttendee },
): Promise<AttendeeUpdatedResult> {
  const { attendee, workspaceId } = input;
  const [registration] = await db`
    select r.id, r.event_id, r.contact_id, c.email
    from public.event_registrations r join public.contacts c on c.id = r.contact_id
    where r.workspace_id = ${workspaceId} and r.external_attendee_id = ${String(attendee.id)}
    for update of r`;
  const holder = registration ? ticketHolder(attendee) : null;
  if (!registration || !holder) return { outcome: "unknown_attendee" };
  const fields = { first_name: holder.first_name, last_name: holder.last_name, phone: holder.phone };
  // a check-in at the door reaches us as an attendee update: recorded once, never undone by a sync
  // (docs/decisions.md, "Segments": attendance)
  if (holder.checked_in)
    await db`update public.event_registrations set checked_in_at = now()
             where id = ${registration.id} and checked_in_at is null`;

  if (holder.email === registration.email) {
    await upsertTicketingContact(db, {
      workspaceId,
      email: holder.email,
      fields,
      autoSubscribe: false,
      via: "ticketing attendee update",
    });
    return { outcome: "updated", contactId: registration.contact_id };
  }

  const { contact } = await upsertTicketingContact(db, {
    workspaceId,
    email: holder.email,
    fields,
    autoSubscribe: input.autoSubscribe,
    via: "ticketing attendee update",
  });
  await db`update public.event_registrations set contact_id = ${contact.id} where id = ${registration.id}`;
  // the giver may hold no ticket for the event now: its campaigns for the event stop (3.2)
  await cancelEnrollmentsWithoutTicket(db, workspaceId, [
    { event_id: registration.event_id, contact_id: registration.contact_id },
  ]);
  await fireTrigger(db, {
    workspaceId,
    trigger: "event_registration",
    contactId: contact.id,
    eventId: registration.event_id,
    payload: {
      source: "attendee.updated",
      attendee_id: attendee.id,
      previous_contact_id: registration.contact_id,
    },
  });
  return { outcome: "transferred", fromContactId: registration.contact_id, toContactId: contact.id };
}
