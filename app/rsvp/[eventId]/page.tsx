import type { Metadata } from "next";
import { withService } from "@/lib/db/doors";
import { eventPageInput, type EventPageProps } from "@/lib/events/event-page-props";
import { loadRsvpEvent, REFUSAL_MESSAGES } from "@/lib/events/rsvp/rsvp-availability";
import { googleCalendarUrl } from "@/lib/events/calendar/event-calendar";
import { seatsLeft, seatsTaken } from "@/lib/events/rsvp/seats";
import {
  listTicketTypes,
  onSale,
  visibleTicketTypes,
  type TicketTypeRow,
} from "@/lib/events/ticket-types/ticket-types";
import { sanitizeRichText } from "@/lib/html/sanitize";
import { eventDateTime } from "@/lib/i18n/event-time";
import { localizeMessage } from "@/lib/i18n/localize-error";
import { pageTranslator } from "@/lib/i18n/flows/page-locale";
import type { MessageKey, Translator } from "@/lib/i18n/translator";

export const dynamic = "force-dynamic";

export async function generateMetadata(props: EventPageProps): Promise<Metadata> {
  const { eventId, query } = await eventPageInput(props);
  const t = await pageTranslator("event", eventId, query.lang);
  return { title: t.t("rsvp.metaTitle"), robots: { index: false } };
}

/** The outcome `?error=` names: a refused field or a code (the endpoint's redirect back). */
const ERRORS: Record<string, MessageKey> = {
  email: "rsvp.errors.email",
  first_name: "rsvp.errors.first_name",
  last_name: "rsvp.errors.last_name",
  phone: "rsvp.errors.phone",
  rate_limited: "rsvp.errors.rate_limited",
  invalid: "rsvp.errors.invalid",
  ticket_type_id: "rsvp.errors.ticket_type_id",
  code: "rsvp.errors.code",
};

function errorText(t: Translator, code: string): string {
  if (Object.hasOwn(ERRORS, code)) return t.t(ERRORS[code]);
  if (Object.hasOwn(REFUSAL_MESSAGES, code))
    return localizeMessage(REFUSAL_MESSAGES[code as keyof typeof REFUSAL_MESSAGES], t);
  return t.t(ERRORS.invalid);
}

/**
 * GET /rsvp/{event_id} (spec 4.13): the form only for a published event that has not started
 * and is not linked to Eventbrite; otherwise a page that says why (a ticketing-linked event
 * links to its Eventbrite page). The form is plain HTML posting to /api/rsvp/{event_id},
 * which redirects back here with the outcome, so it works without JavaScript. In the visitor's
 * language (`?lang=`, `Accept-Language`, the workspace's default; docs/decisions.md, "Recipient
 * languages"), which the form hands on; the event's time in its own zone.
 */
export default async function RsvpPage(props: EventPageProps) {
  const { eventId, query: q } = await eventPageInput(props);
  const [t, [availability, left, types, typeTaken]] = await Promise.all([
    pageTranslator("event", eventId, q.lang),
    withService(async (db) => {
      const found = await loadRsvpEvent(db, eventId);
      if (!("data" in found)) return [found, null, [] as TicketTypeRow[], new Map<string, number>()] as const;
      const all = await listTicketTypes(db, found.data.id);
      const taken = all.some((type) => type.capacity !== null)
        ? (await seatsTaken(db, found.data.id)).byType
        : new Map();
      return [found, await seatsLeft(db, found.data), all, taken as Map<string, number>] as const;
    }),
  ]);

  if ("error" in availability) {
    const eventbriteUrl = availability.error.details?.eventbrite_url;
    return (
      <main className="auth-page" id="main">
        <div className="card stack">
          <h1>{t.t("rsvp.heading")}</h1>
          <p role="status">{localizeMessage(availability.error.message, t)}</p>
          {typeof eventbriteUrl === "string" && eventbriteUrl && (
            <p>
              <a className="button" href={eventbriteUrl} rel="noopener noreferrer">
                {t.t("rsvp.eventbrite")}
              </a>
            </p>
          )}
        </div>
      </main>
    );
  }

  const event = availability.data;
  const title = event.website_title ?? event.name;
  const description = sanitizeRichText(event.website_description ?? event.description);
  const error = q.error ? errorText(t, q.error) : null;
  const emailError = q.error === "email";
  const done = q.status === "registered" || q.status === "already" || q.status === "claimed";
  const waitlisted = q.status === "waitlisted";
  const action = `/api/rsvp/${event.id}${q.lang ? `?lang=${encodeURIComponent(q.lang)}` : ""}`;
  // ticket types (docs/decisions.md, "Ticket types"): the visible ones, a hidden one with its ?code=
  const now = new Date();
  const offered = visibleTicketTypes(types, q.code).filter((type) => onSale(type, now));
  const typeLeft = (type: TicketTypeRow) =>
    type.capacity === null ? null : Math.max(0, type.capacity - (typeTaken.get(type.id) ?? 0));
  const allTypesFull = offered.length > 0 && offered.every((type) => typeLeft(type) === 0);
  const noneOnSale = types.length > 0 && offered.length === 0;
  const soldOut = (left === 0 || allTypesFull) && !done;
  // a full event whose waitlist is on still takes RSVPs: they join the line
  const full = soldOut && !event.waitlist_enabled;
  return (
    <main className="auth-page" id="main">
      <div className="card stack" style={{ maxWidth: 560 }}>
        <h1>{title}</h1>
        <p>
          <strong>{eventDateTime(t, event.start_time, event.timezone)}</strong>
          {event.location && <> · {event.location}</>}
        </p>
        {left !== null && (
          <p className="hint" id="seats-left">
            {t.t("rsvp.seatsLeft", { count: left })}
          </p>
        )}
        <p className="row">
          <a href={`/rsvp/${event.id}/calendar.ics`} download>
            {t.t("rsvp.addToCalendar")}
          </a>
          <a href={googleCalendarUrl(event)} target="_blank" rel="noopener noreferrer">
            {t.t("rsvp.addToGoogle")}
          </a>
        </p>
        {description && <div dangerouslySetInnerHTML={{ __html: description }} />}
        {done && (
          <div role="status" className="alert success" tabIndex={-1}>
            {q.status === "already" ? t.t("rsvp.already") : t.t("rsvp.registered")}
          </div>
        )}
        {waitlisted && (
          <div role="status" className="alert info" tabIndex={-1} id="waitlist-position">
            {t.t("rsvp.waitlisted", { position: q.position ?? "?" })}
          </div>
        )}
        {soldOut && event.waitlist_enabled && !waitlisted && !error && (
          <div role="status" className="alert info">
            {t.t("rsvp.fullJoinWaitlist")}
          </div>
        )}
        {noneOnSale && !done && !waitlisted && (
          <div role="status" className="alert info">
            {t.t("rsvp.noneOnSale")}
          </div>
        )}
        {full && !error && (
          <div role="status" className="alert info">
            {localizeMessage(REFUSAL_MESSAGES.event_full, t)}
          </div>
        )}
        {error && (
          <div role="alert" className="alert error" id="rsvp-error">
            {error}
          </div>
        )}
        {!done && !full && !waitlisted && !noneOnSale && (
          <form method="post" action={action} className="stack" aria-label={t.t("rsvp.formLabel", { title })}>
            <label>
              {t.t("rsvp.email")}
              <input
                name="email"
                type="email"
                required
                autoComplete="email"
                maxLength={254}
                aria-invalid={emailError || undefined}
                aria-describedby={emailError ? "rsvp-error" : undefined}
              />
            </label>
            <div className="row">
              <label>
                {t.t("rsvp.firstName")}
                <input name="first_name" autoComplete="given-name" maxLength={100} />
              </label>
              <label>
                {t.t("rsvp.lastName")}
                <input name="last_name" autoComplete="family-name" maxLength={100} />
              </label>
            </div>
            <label>
              {t.t("rsvp.phone")}
              <input name="phone" type="tel" autoComplete="tel" maxLength={40} />
            </label>
            {offered.length > 0 && (
              <fieldset className="stack">
                <legend>{t.t("rsvp.ticketType")}</legend>
                {offered.map((type, i) => (
                  <label className="check" key={type.id}>
                    <input
                      type="radio"
                      name="ticket_type_id"
                      value={type.id}
                      required
                      defaultChecked={i === 0}
                    />
                    <span>
                      <strong>{type.name}</strong>
                      {type.price_cents > 0 && <> · {t.money(type.price_cents, "usd")}</>}
                      {typeLeft(type) !== null && (
                        <>
                          {" "}
                          ·{" "}
                          {typeLeft(type) === 0
                            ? event.waitlist_enabled
                              ? t.t("rsvp.typeFullWaitlist")
                              : t.t("rsvp.typeSoldOut")
                            : t.t("rsvp.typeLeft", { count: typeLeft(type) ?? 0 })}
                        </>
                      )}
                      {type.description && (
                        <>
                          <br />
                          <span className="hint">{type.description}</span>
                        </>
                      )}
                    </span>
                  </label>
                ))}
              </fieldset>
            )}
            {q.code && <input type="hidden" name="code" value={q.code} />}
            <label className="check">
              <input type="checkbox" name="is_subscribed" value="on" />
              {t.t("rsvp.subscribe")}
            </label>
            {/* honeypot: people never see or fill it */}
            <div aria-hidden="true" style={{ position: "absolute", left: "-10000px" }}>
              <label>
                {t.t("rsvp.website")}
                <input name="website_url" tabIndex={-1} autoComplete="off" />
              </label>
            </div>
            <button type="submit">{soldOut ? t.t("rsvp.joinWaitlist") : t.t("rsvp.submit")}</button>
          </form>
        )}
      </div>
    </main>
  );
}
