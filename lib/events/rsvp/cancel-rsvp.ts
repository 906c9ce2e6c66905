import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";
import { cancelEnrollmentsWithoutTicket } from "../ticketing/cancel-enrollments-without-ticket";

/**
 * Spec 3.2 'registered → cancelled' for an RSVP the person cancels: the registration of this contact
 * (ids trusted: the caller's session named them) is cancelled, its seat counts no more (spec 4.13's
 * capacity counts registered rows), and the campaigns of the event stop for a contact with no
 * ticket left (cancelEnrollmentsWithoutTicket, as a refund does). Only an RSVP taken here, for an
 * event that has not started: a ticket bought on Eventbrite is cancelled there, and reaches us as its
 * refund. A registration of another contact or workspace is not found.
 */
export async function cancelRsvp(
  db: Db,
  input: { workspaceId: string; contactId: string; registrationId: unknown },
): Promise<Result<{ eventId: string }>> {
  if (!isUuid(input.registrationId)) return refused("not_found", "Registration not found.");
  const [cancelled] = await db<{ event_id: string; contact_id: string }[]>`
    update public.event_registrations r set status = 'cancelled'
    from public.events e
    where r.id = ${input.registrationId} and r.workspace_id = ${input.workspaceId}
      and r.contact_id = ${input.contactId} and r.status = 'registered' and r.external_attendee_id is null
      and e.id = r.event_id and e.workspace_id = r.workspace_id
      and (e.start_time is null or e.start_time > now())
    returning r.event_id, r.contact_id`;
  if (!cancelled) return refused("not_found", "Registration not found.");
  await cancelEnrollmentsWithoutTicket(db, input.workspaceId, [cancelled]);
  return { data: { eventId: cancelled.event_id } };
}
