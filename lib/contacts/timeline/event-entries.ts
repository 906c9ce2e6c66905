import { formatMoney, toCents } from "@/lib/payments/money";
import { afterPosition, microsSql, type TimelineRow, type TimelineSource } from "./types";

/**
 * RSVPs (registrations made here, no ticketing attendee) and ticketing registrations
 * (event_registrations), dated when they were made; a paid one shows its amount.
 */
export const eventEntries: TimelineSource = {
  kind: "event",
  query: (db, q) => db`(
    select r.created_at as at, ${microsSql(db, "r.created_at")} as micros, 'event' as kind, r.id::text as id,
      'System' as author,
      jsonb_build_object('event', e.name, 'status', r.status, 'amount', r.amount_paid::text,
                         'ticketing', r.external_attendee_id is not null) as d
    from public.event_registrations r
    left join public.events e on e.id = r.event_id and e.workspace_id = r.workspace_id
    where r.contact_id = ${q.contactId} and r.workspace_id = ${q.workspaceId}
      ${afterPosition(db, "event", "r.created_at", "r.id", q.before)}
    order by r.created_at desc, r.id desc
    limit ${q.limit})`,
  render: (row) => renderEvent(row),
};

/**
 * Check-ins at events (event_registrations.checked_in_at, docs/decisions.md "Segments":
 * attendance), dated when the registrant was checked in. The entry's id is derived from the
 * registration's (a uuid of its own), so a check-in at the very instant of its registration (a
 * ticket scanned before the order reached us) is a position of its own in the cursor order.
 */
const CHECK_IN_ID = "md5(r.id::text || ':checked_in')::uuid";

export const checkInEntries: TimelineSource = {
  kind: "event",
  query: (db, q) => db`(
    select r.checked_in_at as at, ${microsSql(db, "r.checked_in_at")} as micros, 'event' as kind,
      ${db.unsafe(CHECK_IN_ID)}::text as id, 'System' as author,
      jsonb_build_object('event', e.name, 'checked_in', true) as d
    from public.event_registrations r
    left join public.events e on e.id = r.event_id and e.workspace_id = r.workspace_id
    where r.contact_id = ${q.contactId} and r.workspace_id = ${q.workspaceId} and r.checked_in_at is not null
      ${afterPosition(db, "event", "r.checked_in_at", CHECK_IN_ID, q.before)}
    order by r.checked_in_at desc, ${db.unsafe(CHECK_IN_ID)} desc
    limit ${q.limit})`,
  render: (row) => renderEvent(row),
};

/** Both event sources read alike (the timeline renders a row by its kind). */
function renderEvent({ d }: TimelineRow) {
  const event = String(d.event ?? "an event");
  if (d.checked_in === true) return { title: `Checked in at ${event}`, facts: [] };
  const cents = toCents(String(d.amount ?? "0"));
  return {
    title: `${d.ticketing ? "Registered for" : "RSVP to"} ${event}`,
    // registrations carry no currency: the feed of payments reads them as usd as well
    facts: [d.status === "cancelled" && "Cancelled", cents > 0 && `Paid ${formatMoney(cents, "usd")}`],
  };
}
