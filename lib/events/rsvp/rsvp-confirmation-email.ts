import { appUrl } from "@/lib/config";
import { escapeHtml } from "@/lib/html/escape";
import { googleCalendarUrl } from "../calendar/event-calendar";
import type { EventRow } from "../event-row";
import { formatEventDateTime } from "@/lib/time/format";
import { ticketQrUrl, ticketUrl } from "../tickets/issue-ticket";

/**
 * The RSVP confirmation (transactional): what, when (in the event's zone) and where, and the
 * registration's signed ticket (DESIGN section 9, "Events"): its link `{base_url}/tickets/{token}`
 * and its QR code, an image the ticket page serves (mail clients show no data: URLs).
 */
export function rsvpConfirmationEmail(
  event: EventRow,
  firstName: string | null,
  ticket: string | null = null,
) {
  const title = event.website_title ?? event.name;
  const when = formatEventDateTime(event.start_time, event.timezone);
  const where = event.location ?? "";
  const url = `${appUrl()}/rsvp/${event.id}`;
  const ics = `${url}/calendar.ics`;
  const google = googleCalendarUrl(event);
  const greeting = firstName ? `Hi ${firstName},` : "Hi,";
  const subject = `You're registered: ${title}`;
  const ticketLink = ticket ? ticketUrl(ticket) : null;
  const text = [greeting, "", `You're registered for ${title}.`, `When: ${when}`]
    .concat(where ? [`Where: ${where}`] : [])
    .concat(ticketLink ? ["", `Your ticket (show it at the door): ${ticketLink}`] : [], [
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
  ]
    .concat(
      ticket && ticketLink
        ? [
            `<p><strong>Your ticket</strong>: show this code at the door, or open <a href="${escapeHtml(ticketLink)}">your ticket</a>.</p>`,
            `<p><a href="${escapeHtml(ticketLink)}"><img src="${escapeHtml(ticketQrUrl(ticket))}" width="240" height="240" alt="Ticket QR code for ${escapeHtml(title)}"></a></p>`,
          ]
        : [],
    )
    .join("");
  return { subject, html, text };
}
