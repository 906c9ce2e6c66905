import { formatMoney, toCents } from "@/lib/payments/money";
import { afterPosition, microsSql, type TimelineSource } from "./types";

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
  render: ({ d }) => {
    const cents = toCents(String(d.amount ?? "0"));
    return {
      title: `${d.ticketing ? "Registered for" : "RSVP to"} ${String(d.event ?? "an event")}`,
      // registrations carry no currency: the feed of payments reads them as usd as well
      facts: [d.status === "cancelled" && "Cancelled", cents > 0 && `Paid ${formatMoney(cents, "usd")}`],
    };
  },
};
