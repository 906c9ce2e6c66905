import type { Db } from "@/lib/db/doors";
import { ticketInactive } from "../eventbrite/map-attendee";
import type { EbOrder } from "../eventbrite/types";

/**
 * Spec 4.5 order.refunded and 3.2 'registered → cancelled', given the order fetched with its
 * attendees: each refunded or cancelled attendee's registration is cancelled with amount_paid
 * 0; then, for each contact left with no active ticket for that event, its active campaign
 * enrollments linked to the event (by the enrollment or by its campaign) are cancelled.
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

  const enrollments = await db`
    update public.campaign_enrollments ce set status = 'cancelled', cancelled_at = now()
    from (select distinct event_id, contact_id
          from jsonb_to_recordset(${db.json(cancelled as never)}) as p(event_id uuid, contact_id uuid)) p
    where ce.workspace_id = ${workspaceId}
      and ce.contact_id = p.contact_id
      and ce.status = 'active'
      and (ce.event_id = p.event_id
           or ce.campaign_id in (select c.id from public.campaigns c where c.event_id = p.event_id))
      and not exists (
        select 1 from public.event_registrations r
        where r.event_id = p.event_id and r.contact_id = p.contact_id and r.status = 'registered')
    returning ce.id`;
  return { cancelled: cancelled.length, enrollmentsCancelled: enrollments.length };
}
