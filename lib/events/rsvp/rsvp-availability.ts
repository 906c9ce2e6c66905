import type { Db } from "@/lib/db/doors";
import { AppError, APP_ERROR_CODES, type Result } from "@/lib/errors/app-error";
import type { EventRow } from "../event-row";
import { isUuid } from "@/lib/ids/uuid";

/** Why an RSVP is refused: codes of lib/errors/app-error.ts, also the RSVP page's `?error=`. */
export type RsvpRefusal = "not_found" | "event_unpublished" | "event_past" | "event_ticketing" | "event_full";

/** The event, or the refusal as the endpoint answers it (rsvpRefusal). */
export type RsvpAvailability = Result<EventRow>;

/**
 * Spec 4.13: the RSVP form exists only for an event that exists, is published, has not
 * started and is not linked to the ticketing provider (whose own page takes registrations).
 */
export function rsvpAvailability(event: EventRow | null, now = new Date()): RsvpAvailability {
  if (!event) return { error: rsvpRefusal("not_found") };
  if (!event.is_published) return { error: rsvpRefusal("event_unpublished") };
  if (event.external_event_id) return { error: rsvpRefusal("event_ticketing", event.eventbrite_url) };
  if (event.start_time && event.start_time.getTime() < now.getTime())
    return { error: rsvpRefusal("event_past") };
  return { data: event };
}

export async function loadRsvpEvent(db: Db, eventId: string, now = new Date()): Promise<RsvpAvailability> {
  if (!isUuid(eventId)) return { error: rsvpRefusal("not_found") };
  const [event] = await db<EventRow[]>`select * from public.events where id = ${eventId}`;
  return rsvpAvailability(event ?? null, now);
}

/** What the page and the endpoint say for each refusal. */
export const REFUSAL_MESSAGES: Record<RsvpRefusal, string> = {
  not_found: "This event does not exist.",
  event_unpublished: APP_ERROR_CODES.event_unpublished.message,
  event_past: APP_ERROR_CODES.event_past.message,
  event_ticketing: APP_ERROR_CODES.event_ticketing.message,
  event_full: APP_ERROR_CODES.event_full.message,
};

/** A refusal as the endpoint answers it; a ticketing-linked event names its Eventbrite page. */
export function rsvpRefusal(reason: RsvpRefusal, eventbriteUrl?: string | null): AppError {
  return new AppError(reason, REFUSAL_MESSAGES[reason], {
    details: reason === "event_ticketing" ? { eventbrite_url: eventbriteUrl ?? null } : undefined,
  });
}
