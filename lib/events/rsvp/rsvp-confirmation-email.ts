import { appUrl } from "@/lib/config";
import { escapeHtml } from "@/lib/html/escape";
import { googleCalendarUrl } from "../calendar/event-calendar";
import type { EventRow } from "../event-row";
import { formatEventDateTime } from "@/lib/time/format";

/** The RSVP confirmation (transactional): what, when (in the event's zone) and where. */
export function rsvpConfirmationEmail(event: EventRow, firstName: string | null) {
  const title = event.website_title ?? event.name;
  const when = formatEventDateTime(event.start_time, event.timezone);
  const where = event.location ?? "";
  const url = `${appUrl()}/rsvp/${event.id}`;
  const ics = `${url}/calendar.ics`;
  const google = googleCalendarUrl(event);
  const greeting = firstName ? `Hi ${firstName},` : "Hi,";
  const subject = `You're registered: ${title}`;
  const text = [greeting, "", `You're registered for ${title}.`, `When: ${when}`]
    .concat(where ? [`Where: ${where}`] : [], [
      "",
      url,
      `Add to your calendar: ${ics}`,
      `Add to Google Calendar: ${google}`,
    ])
    .join("\n");
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>You're registered for <strong>${escapeHtml(title)}</strong>.</p>`,
    `<p>When: ${escapeHtml(when)}${where ? `<br>Where: ${escapeHtml(where)}` : ""}</p>`,
    `<p><a href="${escapeHtml(url)}">Event details</a> · <a href="${escapeHtml(ics)}">Add to calendar (.ics)</a>`,
    ` · <a href="${escapeHtml(google)}">Add to Google Calendar</a></p>`,
  ].join("");
  return { subject, html, text };
}
