import type { Metadata } from "next";
import { withService } from "@/lib/db/doors";
import { APP_ERROR_CODES } from "@/lib/errors/app-error";
import type { EventRow } from "@/lib/events/event-row";
import { eventPageInput, type EventPageProps } from "@/lib/events/event-page-props";
import { readOffer } from "@/lib/events/waitlist/offers";
import { isUuid } from "@/lib/ids/uuid";
import { formatEventDateTime } from "@/lib/time/format";

export const metadata: Metadata = {
  title: "Claim your seat",
  robots: { index: false },
  referrer: "no-referrer",
};
export const dynamic = "force-dynamic";

const INVALID = "This link is not valid: check that you opened the whole link from your email.";

/** Why a claim is refused, in words (the API's codes: not_found, offer_used, offer_expired). */
const REFUSALS: Record<string, string> = {
  not_found: INVALID,
  offer_used: APP_ERROR_CODES.offer_used.message,
  offer_expired: APP_ERROR_CODES.offer_expired.message,
};

/**
 * GET /rsvp/{event_id}/claim?token=… (DESIGN section 9, "Events"): a waitlist offer's page. Opening
 * it changes nothing (mail scanners open links): it shows the held seat and a button that posts the
 * token to /api/rsvp/{event_id}/claim. A wrong, used or expired link gets a page that says which.
 */
export default async function ClaimPage(props: EventPageProps) {
  const { eventId, query } = await eventPageInput(props);
  const token = query.token ?? "";
  const { offer, event } = await withService(async (db) => {
    const found = query.error ? null : await readOffer(db, { eventId, token });
    const [row] =
      found && "data" in found && isUuid(eventId)
        ? await db<EventRow[]>`select * from public.events where id = ${eventId}`
        : [];
    return { offer: found, event: row as EventRow | undefined };
  });
  const refusal = query.error
    ? (REFUSALS[query.error] ?? INVALID)
    : offer && "error" in offer
      ? (REFUSALS[offer.error.code] ?? INVALID)
      : !event
        ? INVALID
        : null;

  if (refusal || !offer || !("data" in offer) || !event)
    return (
      <main className="auth-page" id="main">
        <div className="card stack">
          <h1>Claim your seat</h1>
          <p role="alert" id="claim-refused">
            {refusal ?? INVALID}
          </p>
          {isUuid(eventId) && (
            <p>
              <a href={`/rsvp/${eventId}`}>Back to the event</a>
            </p>
          )}
        </div>
      </main>
    );

  const title = event.website_title ?? event.name;
  return (
    <main className="auth-page" id="main">
      <div className="card stack" style={{ maxWidth: 560 }}>
        <h1>{title}</h1>
        <p>
          <strong>{formatEventDateTime(event.start_time, event.timezone)}</strong>
          {event.location && <> · {event.location}</>}
        </p>
        <p role="status">
          A seat is held for you until {formatEventDateTime(offer.data.expiresAt, event.timezone)}. Claim it
          to register.
        </p>
        <form method="post" action={`/api/rsvp/${event.id}/claim`} className="stack">
          <input type="hidden" name="token" value={token} />
          <button type="submit">Claim my seat</button>
        </form>
      </div>
    </main>
  );
}
