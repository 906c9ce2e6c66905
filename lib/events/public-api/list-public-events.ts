import type { Db } from "@/lib/db/doors";
import { hashApiKey } from "@/lib/api-keys/hash-api-key";
import { appUrl } from "@/lib/config";
import { displayPrice, numericToCents } from "../ticket-pricing";

export interface PublicEvent {
  id: string;
  title: string;
  description: string | null;
  location: string | null;
  start_time: string | null;
  end_time: string | null;
  timezone: string;
  ticket_price: number | null;
  ticket_class_count: number;
  display_price: string;
  eventbrite_url: string | null;
  rsvp_url: string | null;
  /** issue 16: seats and seats left; both null when the event has no capacity */
  capacity: number | null;
  remaining_seats: number | null;
}

interface Row {
  id: string;
  title: string;
  description: string | null;
  location: string | null;
  start_time: Date | null;
  end_time: Date | null;
  timezone: string;
  ticket_price: string | null;
  ticket_class_count: number;
  eventbrite_url: string | null;
  external_event_id: string | null;
  capacity: number | null;
  taken: number;
}

/**
 * The key of a public API request (spec 5.2): null without one (401), 'revoked' (403), or
 * its workspace. last_used_at is written at most once a minute per key, in the same
 * statement, so the read path stays cheap.
 */
export async function authenticateApiKey(
  db: Db,
  rawKey: string,
): Promise<{ workspaceId: string } | "revoked" | null> {
  const [row] = await db`
    with k as (
      select id, workspace_id, revoked_at, last_used_at from public.api_keys where key_hash = ${hashApiKey(rawKey)}
    ), touch as (
      update public.api_keys a set last_used_at = now() from k
      where a.id = k.id and k.revoked_at is null
        and (k.last_used_at is null or k.last_used_at < now() - interval '1 minute')
      returning a.id
    )
    select workspace_id, revoked_at is not null as revoked from k`;
  if (!row) return null;
  return row.revoked ? "revoked" : { workspaceId: row.workspace_id };
}

/**
 * Spec 4.14: the workspace's published events whose end is later than now, ascending by
 * start. Public fields: the website title and description (falling back to the name and the
 * description, spec 2.7), ticket_class_count and display_price (DESIGN 5).
 */
export async function listPublicEvents(db: Db, input: { workspaceId: string }): Promise<PublicEvent[]> {
  const rows = await db<Row[]>`
    select id, coalesce(website_title, name) as title, coalesce(website_description, description) as description,
           location, start_time, end_time, timezone, ticket_price, ticket_class_count, eventbrite_url, external_event_id,
           capacity, case when capacity is null then 0 else (
             select count(*)::int from public.event_registrations r where r.event_id = e.id and r.status = 'registered'
           ) end as taken
    from public.events e
    where workspace_id = ${input.workspaceId} and is_published and end_time > now()
    order by start_time asc nulls last, id`;
  const base = appUrl();
  return rows.map((e) => ({
    id: e.id,
    title: e.title,
    description: e.description,
    location: e.location,
    start_time: e.start_time?.toISOString() ?? null,
    end_time: e.end_time?.toISOString() ?? null,
    timezone: e.timezone,
    ticket_price: e.ticket_price === null ? null : numericToCents(e.ticket_price)! / 100,
    ticket_class_count: e.ticket_class_count,
    display_price: displayPrice(e.ticket_price, e.ticket_class_count),
    eventbrite_url: e.eventbrite_url,
    rsvp_url: e.external_event_id ? null : `${base}/rsvp/${e.id}`,
    capacity: e.capacity,
    remaining_seats: e.capacity === null ? null : Math.max(0, e.capacity - e.taken),
  }));
}
