import ical from "ical-generator";
import { appUrl } from "@/lib/config";
import type { EventRow } from "../event-row";

/**
 * The event as an RFC 5545 calendar (docs/decisions.md, "The calendar file"): one VEVENT built by
 * ical-generator, which folds long lines and escapes SUMMARY, LOCATION and DESCRIPTION text.
 * DTSTART/DTEND are written in UTC (`…Z`): the stored instants need no VTIMEZONE block, and
 * every calendar shows them in its reader's zone. The UID is stable per event and host, so
 * importing the file again updates the entry instead of adding a second one.
 */
export function eventCalendar(event: EventRow): string {
  const base = appUrl();
  const url = `${base}/rsvp/${event.id}`;
  const start = event.start_time ?? new Date();
  const calendar = ical({ prodId: { company: "crm", product: "events", language: "EN" } });
  calendar.createEvent({
    id: `${event.id}@${new URL(base).host}`,
    start,
    end: event.end_time ?? start,
    stamp: event.updated_at,
    summary: event.website_title ?? event.name,
    location: event.location ?? undefined,
    description: `Event page and RSVP: ${url}`,
    url,
  });
  return calendar.toString();
}

/** "Add to Google Calendar": Google's documented event template link, times in UTC. */
export function googleCalendarUrl(event: EventRow): string {
  const stamp = (d: Date) =>
    d
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
  const start = event.start_time ?? new Date();
  const params = new URLSearchParams({
    action: "TEMPLATE",
    text: event.website_title ?? event.name,
    dates: `${stamp(start)}/${stamp(event.end_time ?? start)}`,
    details: `${appUrl()}/rsvp/${event.id}`,
    location: event.location ?? "",
    ctz: event.timezone,
  });
  return `https://calendar.google.com/calendar/render?${params}`;
}
