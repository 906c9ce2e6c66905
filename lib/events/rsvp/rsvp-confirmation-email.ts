import { appUrl } from "@/lib/config";
import { escapeHtml } from "@/lib/html/escape";
import { eventDateTime } from "@/lib/i18n/event-time";
import { withLang } from "@/lib/i18n/recipient-locale";
import { htmlMessage, textMessage } from "@/lib/i18n/rich";
import { translator, type Translator } from "@/lib/i18n/translator";
import { googleCalendarUrl } from "../calendar/event-calendar";
import type { EventRow } from "../event-row";
import { ticketQrUrl, ticketUrl } from "../tickets/issue-ticket";

/**
 * The RSVP confirmation (transactional): what, when (in the event's zone) and where, in the
 * registrant's language (docs/decisions.md, "Recipient languages"; English when none is given),
 * and the registration's signed ticket (DESIGN section 9, "Events"): its link
 * `{base_url}/tickets/{token}` and its QR code, an image the ticket page serves (mail clients show
 * no data: URLs). The links carry `?lang=` when the language is not English, so the page opens in it too.
 */
export function rsvpConfirmationEmail(
  event: EventRow,
  firstName: string | null,
  t: Translator = translator("en"),
  ticket: string | null = null,
) {
  const title = event.website_title ?? event.name;
  const when = eventDateTime(t, event.start_time, event.timezone);
  const where = event.location ?? "";
  const url = `${appUrl()}/rsvp/${event.id}`;
  const page = withLang(url, t.locale);
  const ics = `${url}/calendar.ics`;
  const google = googleCalendarUrl(event);
  const ticketLink = ticket ? ticketUrl(ticket) : null;
  const greeting = firstName
    ? textMessage(t, "rsvpEmail.greetingName", { name: firstName })
    : textMessage(t, "rsvpEmail.greeting");
  const subject = textMessage(t, "rsvpEmail.subject", { title });
  const text = [
    greeting,
    "",
    textMessage(t, "rsvpEmail.registeredFor", { title }),
    textMessage(t, "rsvpEmail.when", { when }),
  ]
    .concat(where ? [textMessage(t, "rsvpEmail.where", { where })] : [])
    .concat(ticketLink ? ["", textMessage(t, "rsvpEmail.ticketText", { url: ticketLink })] : [], [
      "",
      page,
      textMessage(t, "rsvpEmail.addToCalendar", { url: ics }),
      textMessage(t, "rsvpEmail.addToGoogle", { url: google }),
    ])
    .join("\n");
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${htmlMessage(t, "rsvpEmail.registeredFor", { title })}</p>`,
    `<p>${htmlMessage(t, "rsvpEmail.when", { when })}${where ? `<br>${htmlMessage(t, "rsvpEmail.where", { where })}` : ""}</p>`,
    `<p><a href="${escapeHtml(page)}">${htmlMessage(t, "rsvpEmail.details")}</a> · <a href="${escapeHtml(ics)}">${htmlMessage(t, "rsvp.addToCalendar")}</a>`,
    ` · <a href="${escapeHtml(google)}">${htmlMessage(t, "rsvp.addToGoogle")}</a></p>`,
  ]
    .concat(
      ticket && ticketLink
        ? [
            `<p>${htmlMessage(t, "rsvpEmail.ticketIntro")} <a href="${escapeHtml(ticketLink)}">${htmlMessage(t, "rsvpEmail.ticketLink")}</a>.</p>`,
            `<p><a href="${escapeHtml(ticketLink)}"><img src="${escapeHtml(ticketQrUrl(ticket))}" width="240" height="240" alt="${escapeHtml(textMessage(t, "rsvpEmail.ticketAlt", { title }))}"></a></p>`,
          ]
        : [],
    )
    .join("");
  return { subject, html, text };
}
