import { centsToNumeric } from "../ticket-pricing";
import type { EbAttendee, EbOrder } from "./types";

/** A ticket holder as the service stores it: the contact's details and the registration's. */
export interface TicketHolder {
  external_attendee_id: string;
  external_order_id: string | null;
  external_event_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  amount_paid: string;
  status: "registered" | "cancelled";
  /** Eventbrite says the attendee was checked in (docs/decisions.md, "Segments": attendance) */
  checked_in: boolean;
  /** the ticket class held: the registration's ticket type (docs/decisions.md, "Ticket types") */
  ticket_class_id: string | null;
}

const clean = (value: string | null | undefined) => value?.trim() || null;

/** An attendee is no longer holding a ticket when refunded or cancelled, or when its whole order is refunded. */
export function ticketInactive(attendee: EbAttendee, order?: EbOrder | null): boolean {
  return Boolean(attendee.refunded || attendee.cancelled || order?.status === "refunded");
}

/**
 * Spec 4.5 order.placed step 3: the attendee's details, or the buyer's when the attendee
 * email is blank. Returns null when neither has an email (nothing to attach a registration to).
 */
export function ticketHolder(attendee: EbAttendee, order?: EbOrder | null): TicketHolder | null {
  const buyer = order ?? attendee.order ?? null;
  const own = clean(attendee.profile?.email);
  const email = (own ?? clean(buyer?.email))?.toLowerCase();
  if (!email) return null;
  const person = own ? attendee.profile : buyer;
  const inactive = ticketInactive(attendee, buyer);
  return {
    external_attendee_id: String(attendee.id),
    external_order_id: clean(attendee.order_id ?? buyer?.id) ?? null,
    external_event_id: String(attendee.event_id ?? buyer?.event_id),
    email,
    first_name: clean(person?.first_name),
    last_name: clean(person?.last_name),
    phone: own ? clean(attendee.profile?.cell_phone) : null,
    amount_paid: inactive
      ? "0.00"
      : centsToNumeric(Math.max(0, Math.round(attendee.costs?.gross?.value ?? 0))),
    status: inactive ? "cancelled" : "registered",
    checked_in: attendee.checked_in === true,
    ticket_class_id: attendee.ticket_class_id ? String(attendee.ticket_class_id) : null,
  };
}
