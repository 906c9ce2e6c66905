import type { Db } from "@/lib/db/doors";

/**
 * The registration states that take a seat (docs/decisions.md, "RSVP and capacity" and "A waitlist
 * that fills itself"): a registration, and an offer while it waits to be claimed. A state that holds
 * a seat for payment is added here, and every count of seats follows.
 */
export const SEAT_STATUSES = ["registered", "offered"] as const;

/** Seats taken at an event, and per ticket type (types without a row take none). */
export async function seatsTaken(
  db: Db,
  eventId: string,
): Promise<{ event: number; byType: Map<string, number> }> {
  const rows = await db<{ ticket_type_id: string | null; taken: number }[]>`
    select ticket_type_id, count(*)::int as taken from public.event_registrations
    where event_id = ${eventId} and status in ${db(SEAT_STATUSES)}
    group by ticket_type_id`;
  const byType = new Map<string, number>();
  let event = 0;
  for (const r of rows) {
    event += r.taken;
    if (r.ticket_type_id) byType.set(r.ticket_type_id, r.taken);
  }
  return { event, byType };
}

/**
 * Seats left at an event: capacity less the seats taken (registrations, RSVPs and ticketing
 * attendees alike, and held offers), never below zero; null when the event has no capacity.
 */
export async function seatsLeft(
  db: Db,
  event: { id: string; capacity: number | null },
): Promise<number | null> {
  if (event.capacity === null) return null;
  const { event: taken } = await seatsTaken(db, event.id);
  return Math.max(0, event.capacity - taken);
}

/** What an RSVP may do once it holds the event's lock. */
export type SeatCheck = "ok" | "full";

/**
 * The capacity check of an RSVP, inside its transaction and before anything is written: locks the
 * event row (concurrent RSVPs for the same event wait here, then count what the first committed),
 * so for the last seat exactly one RSVP passes. Full when the event, or the chosen ticket type, has
 * no seat left. A person already holding a seat passes (their repeat changes nothing). An event
 * with neither a capacity nor a capped type takes no lock, unless `lock` asks for it (an access
 * code's use limit, the waitlist's order).
 */
export async function claimSeat(
  db: Db,
  input: {
    eventId: string;
    email: string;
    ticketType?: { id: string; capacity: number | null } | null;
    lock?: boolean;
  },
): Promise<SeatCheck> {
  const typeCap = input.ticketType?.capacity ?? null;
  const [event] = await db<{ id: string; capacity: number | null }[]>`
    select id, capacity from public.events
    where id = ${input.eventId} and (capacity is not null or ${typeCap !== null || input.lock === true})
    for update`;
  if (!event) return "ok";
  if (event.capacity === null && typeCap === null) return "ok";
  const taken = await seatsTaken(db, event.id);
  const eventFull = event.capacity !== null && taken.event >= event.capacity;
  const typeFull = typeCap !== null && (taken.byType.get(input.ticketType!.id) ?? 0) >= typeCap;
  if (!eventFull && !typeFull) return "ok";
  const [mine] = await db`
    select 1 from public.event_registrations r
    join public.contacts c on c.id = r.contact_id and c.workspace_id = r.workspace_id
    where r.event_id = ${event.id} and lower(c.email) = lower(${input.email})
      and r.status in ${db(SEAT_STATUSES)}`;
  return mine ? "ok" : "full";
}
