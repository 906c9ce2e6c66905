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
import { formatEventDateTime } from "@/lib/time/format";

export const metadata: Metadata = { title: "RSVP", robots: { index: false } };
export const dynamic = "force-dynamic";

const ERRORS: Record<string, string> = {
  email: "Enter a valid email address.",
  first_name: "Your first name is too long.",
  last_name: "Your last name is too long.",
  phone: "Your phone number is too long.",
  rate_limited: "Too many attempts from your connection. Wait a minute and try again.",
  invalid: "Your answer could not be read. Try again.",
  ticket_type_id: "Choose one of the ticket types offered; it may not be on sale now.",
  code: "This access code cannot be used (it may be used up).",
  ...REFUSAL_MESSAGES,
};

/**
 * GET /rsvp/{event_id} (spec 4.13): the form only for a published event that has not started
 * and is not linked to Eventbrite; otherwise a page that says why (a ticketing-linked event
 * links to its Eventbrite page). The form is plain HTML posting to /api/rsvp/{event_id},
 * which redirects back here with the outcome, so it works without JavaScript.
 */
export default async function RsvpPage(props: EventPageProps) {
  const { eventId, query: q } = await eventPageInput(props);
  const [availability, left, types, typeTaken] = await withService(async (db) => {
    const found = await loadRsvpEvent(db, eventId);
    if (!("data" in found)) return [found, null, [] as TicketTypeRow[], new Map<string, number>()] as const;
    const all = await listTicketTypes(db, found.data.id);
    const taken = all.some((t) => t.capacity !== null)
      ? (await seatsTaken(db, found.data.id)).byType
      : new Map();
    return [found, await seatsLeft(db, found.data), all, taken as Map<string, number>] as const;
  });

  if ("error" in availability) {
    const eventbriteUrl = availability.error.details?.eventbrite_url;
    return (
      <main className="auth-page" id="main">
        <div className="card stack">
          <h1>RSVP</h1>
          <p role="status">{availability.error.message}</p>
          {typeof eventbriteUrl === "string" && eventbriteUrl && (
            <p>
              <a className="button" href={eventbriteUrl} rel="noopener noreferrer">
                Get tickets on Eventbrite
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
  const error = q.error ? (ERRORS[q.error] ?? ERRORS.invalid) : null;
  const emailError = q.error === "email";
  const done = q.status === "registered" || q.status === "already" || q.status === "claimed";
  const waitlisted = q.status === "waitlisted";
  // ticket types (docs/decisions.md, "Ticket types"): the visible ones, a hidden one with its ?code=
  const now = new Date();
  const offered = visibleTicketTypes(types, q.code).filter((t) => onSale(t, now));
  const typeLeft = (t: TicketTypeRow) =>
    t.capacity === null ? null : Math.max(0, t.capacity - (typeTaken.get(t.id) ?? 0));
  const allTypesFull = offered.length > 0 && offered.every((t) => typeLeft(t) === 0);
  const noneOnSale = types.length > 0 && offered.length === 0;
  const soldOut = (left === 0 || allTypesFull) && !done;
  // a full event whose waitlist is on still takes RSVPs: they join the line
  const full = soldOut && !event.waitlist_enabled;
  return (
    <main className="auth-page" id="main">
      <div className="card stack" style={{ maxWidth: 560 }}>
        <h1>{title}</h1>
        <p>
          <strong>{formatEventDateTime(event.start_time, event.timezone)}</strong>
          {event.location && <> · {event.location}</>}
        </p>
        {left !== null && (
          <p className="hint" id="seats-left">
            {left === 0 ? "No seats left." : `${left} ${left === 1 ? "seat" : "seats"} left.`}
          </p>
        )}
        <p className="row">
          <a href={`/rsvp/${event.id}/calendar.ics`} download>
            Add to calendar (.ics)
          </a>
          <a href={googleCalendarUrl(event)} target="_blank" rel="noopener noreferrer">
            Add to Google Calendar
          </a>
        </p>
        {description && <div dangerouslySetInnerHTML={{ __html: description }} />}
        {done && (
          <div role="status" className="alert success" tabIndex={-1}>
            {q.status === "already"
              ? "You're already registered for this event."
              : "You're registered! A confirmation is on its way to your inbox."}
          </div>
        )}
        {waitlisted && (
          <div role="status" className="alert info" tabIndex={-1} id="waitlist-position">
            {`You are on the waitlist, number ${q.position ?? "?"}. If a seat frees up, we will email you a link to claim it.`}
          </div>
        )}
        {soldOut && event.waitlist_enabled && !waitlisted && !error && (
          <div role="status" className="alert info">
            This event is full. RSVP below to join the waitlist: if a seat frees up, the first in line is
            emailed a link to claim it.
          </div>
        )}
        {noneOnSale && !done && !waitlisted && (
          <div role="status" className="alert info">
            No tickets are on sale right now.
          </div>
        )}
        {full && !error && (
          <div role="status" className="alert info">
            {REFUSAL_MESSAGES.event_full}
          </div>
        )}
        {error && (
          <div role="alert" className="alert error" id="rsvp-error">
            {error}
          </div>
        )}
        {!done && !full && !waitlisted && !noneOnSale && (
          <form
            method="post"
            action={`/api/rsvp/${event.id}`}
            className="stack"
            aria-label={`RSVP for ${title}`}
          >
            <label>
              Email
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
                First name
                <input name="first_name" autoComplete="given-name" maxLength={100} />
              </label>
              <label>
                Last name
                <input name="last_name" autoComplete="family-name" maxLength={100} />
              </label>
            </div>
            <label>
              Phone (optional)
              <input name="phone" type="tel" autoComplete="tel" maxLength={40} />
            </label>
            {offered.length > 0 && (
              <fieldset className="stack">
                <legend>Ticket type</legend>
                {offered.map((t, i) => (
                  <label className="check" key={t.id}>
                    <input
                      type="radio"
                      name="ticket_type_id"
                      value={t.id}
                      required
                      defaultChecked={i === 0}
                    />
                    <span>
                      <strong>{t.name}</strong>
                      {t.price_cents > 0 && <> · ${(t.price_cents / 100).toFixed(2)}</>}
                      {typeLeft(t) !== null && (
                        <>
                          {" "}
                          ·{" "}
                          {typeLeft(t) === 0
                            ? event.waitlist_enabled
                              ? "full: join the waitlist"
                              : "sold out"
                            : `${typeLeft(t)} left`}
                        </>
                      )}
                      {t.description && (
                        <>
                          <br />
                          <span className="hint">{t.description}</span>
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
              Keep me updated about future events by email
            </label>
            {/* honeypot: people never see or fill it */}
            <div aria-hidden="true" style={{ position: "absolute", left: "-10000px" }}>
              <label>
                Website
                <input name="website_url" tabIndex={-1} autoComplete="off" />
              </label>
            </div>
            <button type="submit">{soldOut ? "Join the waitlist" : "RSVP"}</button>
          </form>
        )}
      </div>
    </main>
  );
}
