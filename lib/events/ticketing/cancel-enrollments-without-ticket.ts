import type { Db } from "@/lib/db/doors";

/**
 * Spec 3.2: a contact left with no active ticket for an event stops receiving that event's
 * campaigns. For each (event, contact) given, the contact's active enrollments linked to the
 * event (by the enrollment or by its campaign) are cancelled unless the contact still holds a
 * registered ticket for it. Used when tickets are refunded and when one is transferred away.
 */
export async function cancelEnrollmentsWithoutTicket(
  db: Db,
  workspaceId: string,
  holders: { event_id: string; contact_id: string }[],
): Promise<number> {
  if (holders.length === 0) return 0;
  const cancelled = await db`
    update public.campaign_enrollments ce set status = 'cancelled', cancelled_at = now()
    from (select distinct event_id, contact_id
          from jsonb_to_recordset(${db.json(holders as never)}) as p(event_id uuid, contact_id uuid)) p
    where ce.workspace_id = ${workspaceId}
      and ce.contact_id = p.contact_id
      and ce.status = 'active'
      and (ce.event_id = p.event_id
           or ce.campaign_id in (select c.id from public.campaigns c where c.event_id = p.event_id))
      and not exists (
        select 1 from public.event_registrations r
        where r.event_id = p.event_id and r.contact_id = p.contact_id and r.status = 'registered')
    returning ce.id`;
  return cancelled.length;
}
