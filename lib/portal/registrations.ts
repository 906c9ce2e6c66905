import type { Db } from "@/lib/db/doors";
import type { Result } from "@/lib/errors/app-error";
import { cancelRsvp } from "@/lib/events/rsvp/cancel-rsvp";
import { recordPortalAudit } from "./portal-audit";
import type { PortalSession } from "./portal-session";

export interface PortalRegistration {
  id: string;
  eventId: string;
  eventName: string;
  startTime: Date | null;
  location: string | null;
  status: "registered" | "cancelled";
  /** an RSVP taken here for an event still to come: the contact may cancel it */
  cancellable: boolean;
}

/** The contact's registrations and tickets, soonest event first. */
export function portalRegistrations(db: Db, session: PortalSession): Promise<PortalRegistration[]> {
  return db<PortalRegistration[]>`
    select r.id, r.event_id as "eventId", e.name as "eventName", e.start_time as "startTime", e.location,
           r.status,
           (r.status = 'registered' and r.external_attendee_id is null
            and (e.start_time is null or e.start_time > now())) as cancellable
    from public.event_registrations r
    join public.events e on e.id = r.event_id and e.workspace_id = r.workspace_id
    where r.workspace_id = ${session.workspaceId} and r.contact_id = ${session.contactId}
    order by e.start_time nulls last, r.created_at
    limit 200`;
}

/** The contact cancels an RSVP of theirs (the registration id is untrusted: looked up as theirs). */
export async function cancelPortalRsvp(
  db: Db,
  session: PortalSession,
  input: { registrationId: unknown; ip: string | null },
): Promise<Result<{ eventId: string }>> {
  const result = await cancelRsvp(db, {
    workspaceId: session.workspaceId,
    contactId: session.contactId,
    registrationId: input.registrationId,
  });
  if ("data" in result)
    await recordPortalAudit(db, {
      workspaceId: session.workspaceId,
      contactId: session.contactId,
      action: "contact.portal_rsvp_cancelled",
      after: { event_id: result.data.eventId, registration_id: input.registrationId },
      ip: input.ip,
    });
  return result;
}
