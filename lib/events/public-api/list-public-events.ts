import type { Db } from "@/lib/db/doors";
import { appUrl } from "@/lib/config";
import type { KeyCheck } from "./api-key-cache";
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
}

/**
 * The key of a public API request (spec 5.2), by its digest (hashApiKey): null when unknown
 * (401), 'revoked' (403), or its workspace. last_used_at is written at most once a minute per
 * key, in the same statement, so the read path stays cheap.
 */
export async function authenticateApiKey(db: Db, keyHash: string): Promise<KeyCheck> {
  const [row] = await db`
    with k as (
      select id, workspace_id, revoked_at, last_used_at from public.api_keys where key_hash = ${keyHash}
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
           location, start_time, end_time, timezone, ticket_price, ticket_class_count, eventbrite_url, external_event_id
    from public.events
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
  }));
}
