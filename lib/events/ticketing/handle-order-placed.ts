import type { Db } from "@/lib/db/doors";
import { fireTrigger } from "@/lib/automations/fire-trigger";
import { ticketHolder, type TicketHolder } from "../eventbrite/map-attendee";
import type { EbOrder } from "../eventbrite/types";
import { upsertTicketingContact } from "./upsert-ticketing-contact";

export interface OrderPlacedResult {
  registered: number;
  contacts: number;
  automations: number;
}

/**
 * Spec 4.5 order.placed (and 3.2 '(new) → registered'), given the order fetched with its
 * attendees and the event it belongs to:
 * - contacts upserted by email, the buyer's details standing in for a blank attendee email,
 *   with diff-and-audit (4.10) and, when the connection says so, auto-subscribe (step 5);
 * - registrations inserted once per external_attendee_id (a replay inserts nothing);
 * - event_registration automations fired once per contact of the order, and only for
 *   contacts that got a new active registration from it.
 */
export async function handleOrderPlaced(
  db: Db,
  input: { workspaceId: string; eventId: string; autoSubscribe: boolean; order: EbOrder },
): Promise<OrderPlacedResult> {
  const { order, workspaceId, eventId } = input;
  const holders = (order.attendees ?? [])
    .map((attendee) => ticketHolder({ ...attendee, event_id: attendee.event_id ?? order.event_id }, order))
    .filter((h): h is TicketHolder => h !== null);
  if (holders.length === 0) return { registered: 0, contacts: 0, automations: 0 };

  const contactIds = new Map<string, string>();
  for (const holder of holders) {
    if (contactIds.has(holder.email)) continue;
    const { contact } = await upsertTicketingContact(db, {
      workspaceId,
      email: holder.email,
      fields: { first_name: holder.first_name, last_name: holder.last_name, phone: holder.phone },
      autoSubscribe: input.autoSubscribe,
      via: "ticketing registration",
    });
    contactIds.set(holder.email, contact.id);
  }

  const rows = holders.map((h) => ({
    contact_id: contactIds.get(h.email),
    amount_paid: h.amount_paid,
    status: h.status,
    external_attendee_id: h.external_attendee_id,
    external_order_id: h.external_order_id,
    checked_in: h.checked_in,
    ticket_class_id: h.ticket_class_id,
  }));
  const inserted = await db<{ contact_id: string; status: string }[]>`
    insert into public.event_registrations
      (workspace_id, event_id, contact_id, amount_paid, status, external_attendee_id, external_order_id, checked_in_at,
       ticket_type_id)
    select ${workspaceId}, ${eventId}, x.contact_id, x.amount_paid, x.status, x.external_attendee_id, x.external_order_id,
           case when x.checked_in then now() end,
           -- the type of the attendee's Eventbrite ticket class (docs/decisions.md, "Ticket types")
           (select t.id from public.event_ticket_types t
            where t.event_id = ${eventId} and t.external_ticket_class_id = x.ticket_class_id)
    from jsonb_to_recordset(${db.json(rows as never)}) as x(
      contact_id uuid, amount_paid numeric, status text, external_attendee_id text, external_order_id text,
      checked_in boolean, ticket_class_id text)
    on conflict (external_attendee_id) do nothing
    returning contact_id, status`;

  const newlyRegistered = [
    ...new Set(inserted.filter((r) => r.status === "registered").map((r) => r.contact_id)),
  ];
  for (const contactId of newlyRegistered) {
    await fireTrigger(db, {
      workspaceId,
      trigger: "event_registration",
      contactId,
      eventId,
      payload: { source: "order.placed", order_id: order.id, event_id: eventId },
    });
  }
  return { registered: inserted.length, contacts: contactIds.size, automations: newlyRegistered.length };
}
