import type { Metadata } from "next";
import { withService } from "@/lib/db/doors";
import { eventPageInput, type EventPageProps } from "@/lib/events/event-page-props";
import { loadRsvpEvent, REFUSAL_MESSAGES } from "@/lib/events/rsvp/rsvp-availability";
import { googleCalendarUrl } from "@/lib/events/calendar/event-calendar";
import { seatsLeft } from "@/lib/events/rsvp/seats";
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
  const [availability, left] = await withService(async (db) => {
    const found = await loadRsvpEvent(db, eventId);
    return [found, "data" in found ? await seatsLeft(db, found.data) : null] as const;
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
  const done = q.status === "registered" || q.status === "already";
  const full = left === 0 && !done;
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
        {!done && !full && (
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
            <button type="submit">RSVP</button>
          </form>
        )}
      </div>
    </main>
  );
}
