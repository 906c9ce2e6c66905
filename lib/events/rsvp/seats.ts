import type { Db } from "@/lib/db/doors";

/**
 * Seats left at an event (docs/decisions.md, "RSVP and capacity"): capacity less its 'registered'
 * registrations (RSVPs and ticketing attendees alike), never below zero; null when the event has no capacity.
 */
export async function seatsLeft(
  db: Db,
  event: { id: string; capacity: number | null },
): Promise<number | null> {
  if (event.capacity === null) return null;
  const [{ taken }] = await db`
    select count(*)::int as taken from public.event_registrations
    where event_id = ${event.id} and status = 'registered'`;
  return Math.max(0, event.capacity - taken);
}

/**
 * The capacity check of an RSVP, inside its transaction and before anything is written:
 * locks the event row (concurrent RSVPs for the same event wait here, then count what the
 * first committed), so for the last seat exactly one RSVP passes. A person already
 * registered passes (their repeat changes nothing). Events without a capacity take no lock.
 */
export async function claimSeat(db: Db, input: { eventId: string; email: string }): Promise<"ok" | "full"> {
  const [event] = await db<{ id: string; capacity: number | null }[]>`
    select id, capacity from public.events where id = ${input.eventId} and capacity is not null for update`;
  if (!event) return "ok";
  const left = await seatsLeft(db, event);
  if (left! > 0) return "ok";
  const [mine] = await db`
    select 1 from public.event_registrations r
    join public.contacts c on c.id = r.contact_id and c.workspace_id = r.workspace_id
    where r.event_id = ${event.id} and lower(c.email) = lower(${input.email}) and r.status = 'registered'`;
  return mine ? "ok" : "full";
}
