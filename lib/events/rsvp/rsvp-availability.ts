import type { Db } from "@/lib/db/doors";
import type { EventRow } from "../event-row";
import { isUuid } from "@/lib/ids/uuid";

export type RsvpRefusal = "not_found" | "unpublished" | "past" | "ticketing" | "full";

export type RsvpAvailability =
  { ok: true; event: EventRow } | { ok: false; reason: RsvpRefusal; eventbriteUrl?: string | null };

/**
 * Spec 4.13: the RSVP form exists only for an event that exists, is published, has not
 * started and is not linked to the ticketing provider (whose own page takes registrations).
 */
export function rsvpAvailability(event: EventRow | null, now = new Date()): RsvpAvailability {
  if (!event) return { ok: false, reason: "not_found" };
  if (!event.is_published) return { ok: false, reason: "unpublished" };
  if (event.external_event_id) return { ok: false, reason: "ticketing", eventbriteUrl: event.eventbrite_url };
  if (event.start_time && event.start_time.getTime() < now.getTime()) return { ok: false, reason: "past" };
  return { ok: true, event };
}

export async function loadRsvpEvent(db: Db, eventId: string, now = new Date()): Promise<RsvpAvailability> {
  if (!isUuid(eventId)) return { ok: false, reason: "not_found" };
  const [event] = await db<EventRow[]>`select * from public.events where id = ${eventId}`;
  return rsvpAvailability(event ?? null, now);
}

/** What the page and the endpoint say for each refusal. */
export const REFUSAL_MESSAGES: Record<RsvpRefusal, string> = {
  not_found: "This event does not exist.",
  unpublished: "This event is not open for registration.",
  past: "This event has already started, so registration is closed.",
  ticketing: "Registration for this event happens on Eventbrite.",
  full: "This event is full: no seats are left.",
};
