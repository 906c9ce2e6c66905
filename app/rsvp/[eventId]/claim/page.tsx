import type { Metadata } from "next";
import { withService } from "@/lib/db/doors";
import type { EventRow } from "@/lib/events/event-row";
import { eventPageInput, type EventPageProps } from "@/lib/events/event-page-props";
import { readOffer } from "@/lib/events/waitlist/offers";
import { isUuid } from "@/lib/ids/uuid";
import { eventDateTime } from "@/lib/i18n/event-time";
import { pageTranslator } from "@/lib/i18n/flows/page-locale";
import { withLang } from "@/lib/i18n/recipient-locale";
import type { MessageKey } from "@/lib/i18n/translator";

export const dynamic = "force-dynamic";

export async function generateMetadata(props: EventPageProps): Promise<Metadata> {
  const { eventId, query } = await eventPageInput(props);
  const t = await pageTranslator("event", eventId, query.lang);
  return { title: t.t("waitlist.claimTitle"), robots: { index: false }, referrer: "no-referrer" };
}

/** Why a claim is refused, in words (the API's codes: not_found, offer_used, offer_expired). */
const REFUSALS: Record<string, MessageKey> = {
  not_found: "waitlist.claimInvalid",
  offer_used: "errors.offerUsed",
  offer_expired: "errors.offerExpired",
};

/**
 * GET /rsvp/{event_id}/claim?token=… (DESIGN section 9, "Events"): a waitlist offer's page. Opening
 * it changes nothing (mail scanners open links): it shows the held seat and a button that posts the
 * token to /api/rsvp/{event_id}/claim. A wrong, used or expired link gets a page that says which.
 */
export default async function ClaimPage(props: EventPageProps) {
  const { eventId, query } = await eventPageInput(props);
  const token = query.token ?? "";
  const t = await pageTranslator("event", eventId, query.lang);
  const { offer, event } = await withService(async (db) => {
    const found = query.error ? null : await readOffer(db, { eventId, token });
    const [row] =
      found && "data" in found && isUuid(eventId)
        ? await db<EventRow[]>`select * from public.events where id = ${eventId}`
        : [];
    return { offer: found, event: row as EventRow | undefined };
  });
  const refused = (code: string) => t.t(Object.hasOwn(REFUSALS, code) ? REFUSALS[code] : REFUSALS.not_found);
  const refusal = query.error
    ? refused(query.error)
    : offer && "error" in offer
      ? refused(offer.error.code)
      : !event
        ? refused("not_found")
        : null;

  if (refusal || !offer || !("data" in offer) || !event)
    return (
      <main className="auth-page" id="main">
        <div className="card stack">
          <h1>{t.t("waitlist.claimTitle")}</h1>
          <p role="alert" id="claim-refused">
            {refusal ?? refused("not_found")}
          </p>
          {isUuid(eventId) && (
            <p>
              <a href={withLang(`/rsvp/${eventId}`, t.locale)}>{t.t("waitlist.backToEvent")}</a>
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
          <strong>{eventDateTime(t, event.start_time, event.timezone)}</strong>
          {event.location && <> · {event.location}</>}
        </p>
        <p role="status">
          {t.t("waitlist.claimHeld", { until: eventDateTime(t, offer.data.expiresAt, event.timezone) })}
        </p>
        <form method="post" action={withLang(`/api/rsvp/${event.id}/claim`, t.locale)} className="stack">
          <input type="hidden" name="token" value={token} />
          <button type="submit">{t.t("waitlist.claimButton")}</button>
        </form>
      </div>
    </main>
  );
}
