import type { Db } from "@/lib/db/doors";
import { ticketInactive } from "../eventbrite/map-attendee";
import type { EbOrder } from "../eventbrite/types";
import { cancelEnrollmentsWithoutTicket } from "./cancel-enrollments-without-ticket";

/**
 * Spec 4.5 order.refunded and 3.2 'registered → cancelled', given the order fetched with its
 * attendees: each refunded or cancelled attendee's registration is cancelled with amount_paid
 * 0; then the campaign enrollments of each contact left with no active ticket for that event
 * are cancelled (cancelEnrollmentsWithoutTicket).
 * Registrations already cancelled are not touched again, so a replay changes nothing.
 */
export async function handleOrderRefunded(
  db: Db,
  input: { workspaceId: string; order: EbOrder },
): Promise<{ cancelled: number; enrollmentsCancelled: number }> {
  const { order, workspaceId } = input;
  const attendeeIds = (order.attendees ?? [])
    .filter((attendee) => ticketInactive(attendee, order))
    .map((attendee) => String(attendee.id));
  if (attendeeIds.length === 0) return { cancelled: 0, enrollmentsCancelled: 0 };

  const cancelled = await db<{ event_id: string; contact_id: string }[]>`
    update public.event_registrations set status = 'cancelled', amount_paid = 0
    where workspace_id = ${workspaceId} and external_attendee_id in ${db(attendeeIds)} and status = 'registered'
    returning event_id, contact_id`;
  if (cancelled.length === 0) return { cancelled: 0, enrollmentsCancelled: 0 };

  const enrollmentsCancelled = await cancelEnrollmentsWithoutTicket(db, workspaceId, [...cancelled]);
  return { cancelled: cancelled.length, enrollmentsCancelled };
}
