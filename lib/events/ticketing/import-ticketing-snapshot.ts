import type { Db } from "@/lib/db/doors";
import type { ImportedEvent } from "../eventbrite/map-event";
import type { TicketHolder } from "../eventbrite/map-attendee";
import type { TicketingSnapshot } from "./fetch-ticketing-snapshot";

/**
 * Writes imported events, set-based: new ones inserted, known ones (by external_event_id)
 * refreshed from Eventbrite with last_synced_at. A new event is published when Eventbrite
 * lists it; a known event keeps the member's publish toggle unless Eventbrite no longer lists
 * it. Website title and description are the workspace's own and never touched.
 */
export async function importEvents(
  db: Db,
  workspaceId: string,
  events: ImportedEvent[],
): Promise<{ id: string; external_event_id: string }[]> {
  if (events.length === 0) return [];
  const written = await db<{ id: string; external_event_id: string }[]>`
    insert into public.events (workspace_id, external_event_id, name, description, location, start_time,
      end_time, timezone, eventbrite_url, ticket_price, ticket_class_count, is_published, last_synced_at)
    select ${workspaceId}, x.external_event_id, x.name, x.description, x.location, x.start_time,
           x.end_time, x.timezone, x.eventbrite_url, x.ticket_price, x.ticket_class_count, x.listed, now()
    from jsonb_to_recordset(${db.json(events as never)}) as x(
      external_event_id text, name text, description text, location text, start_time timestamptz,
      end_time timestamptz, timezone text, eventbrite_url text, ticket_price numeric,
      ticket_class_count integer, listed boolean)
    on conflict (workspace_id, external_event_id) do update set
      name = excluded.name,
      description = excluded.description,
      location = excluded.location,
      start_time = excluded.start_time,
      end_time = excluded.end_time,
      timezone = excluded.timezone,
      eventbrite_url = excluded.eventbrite_url,
      ticket_price = excluded.ticket_price,
      ticket_class_count = excluded.ticket_class_count,
      is_published = events.is_published and excluded.is_published,
      last_synced_at = excluded.last_synced_at
    returning id, external_event_id`;
  await importTicketTypes(db, workspaceId, written, events);
  return written;
}

/**
 * Each imported event's ticket classes as its ticket types (docs/decisions.md, "Ticket types"),
 * keyed on the class id: name, description, price and order follow Eventbrite; a class Eventbrite
 * no longer has is kept (registrations may name it). Eventbrite sells these seats, so no capacity.
 */
async function importTicketTypes(
  db: Db,
  workspaceId: string,
  written: { id: string; external_event_id: string }[],
  events: ImportedEvent[],
): Promise<void> {
  const ids = new Map(written.map((w) => [w.external_event_id, w.id]));
  const rows = events.flatMap((e) =>
    (e.ticket_classes ?? []).map((c) => ({ ...c, event_id: ids.get(e.external_event_id) })),
  );
  if (rows.length === 0) return;
  await db`
    insert into public.event_ticket_types
      (workspace_id, event_id, external_ticket_class_id, name, description, price_cents, sort_order)
    select ${workspaceId}, x.event_id, x.external_ticket_class_id, x.name, x.description, x.price_cents, x.sort_order
    from jsonb_to_recordset(${db.json(rows as never)}) as x(
      event_id uuid, external_ticket_class_id text, name text, description text, price_cents integer, sort_order integer)
    where x.event_id is not null
    on conflict (event_id, external_ticket_class_id) where external_ticket_class_id is not null do update set
      name = excluded.name,
      description = excluded.description,
      price_cents = excluded.price_cents,
      sort_order = excluded.sort_order
    where (event_ticket_types.name, event_ticket_types.description, event_ticket_types.price_cents,
           event_ticket_types.sort_order)
      is distinct from (excluded.name, excluded.description, excluded.price_cents, excluded.sort_order)`;
}

/** One row per email (first wins), so a set-based upsert never touches a row twice. */
function distinctByEmail(holders: TicketHolder[]): TicketHolder[] {
  const seen = new Map<string, TicketHolder>();
  for (const h of holders) if (!seen.has(h.email)) seen.set(h.email, h);
  return [...seen.values()];
}

/**
 * Historical attendees (spec 4.5, 4.10): contacts created with source 'ticketing' or, when
 * they exist, only their empty fields filled (historical data never overwrites what the CRM
 * holds, so the audit rule has nothing to record); no auto-subscribe, no automations.
 * Registrations keyed on external_attendee_id take Eventbrite's status and amount.
 */
export async function importHolders(
  db: Db,
  workspaceId: string,
  holders: TicketHolder[],
): Promise<{ registrations: number }> {
  if (holders.length === 0) return { registrations: 0 };
  const people = distinctByEmail(holders).map(({ email, first_name, last_name, phone }) => ({
    email,
    first_name,
    last_name,
    phone,
  }));
  await db`
    insert into public.contacts (workspace_id, email, first_name, last_name, phone, source)
    select ${workspaceId}, x.email, x.first_name, x.last_name, x.phone, 'ticketing'
    from jsonb_to_recordset(${db.json(people as never)}) as x(email text, first_name text, last_name text, phone text)
    on conflict (workspace_id, email) do update set
      first_name = coalesce(nullif(btrim(contacts.first_name), ''), excluded.first_name),
      last_name = coalesce(nullif(btrim(contacts.last_name), ''), excluded.last_name),
      phone = coalesce(nullif(btrim(contacts.phone), ''), excluded.phone)
    where (nullif(btrim(contacts.first_name), '') is null and excluded.first_name is not null)
       or (nullif(btrim(contacts.last_name), '') is null and excluded.last_name is not null)
       or (nullif(btrim(contacts.phone), '') is null and excluded.phone is not null)`;
  const written = await db`
    insert into public.event_registrations
      (workspace_id, event_id, contact_id, amount_paid, status, external_attendee_id, external_order_id, checked_in_at,
       ticket_type_id)
    select ${workspaceId}, e.id, c.id, x.amount_paid, x.status, x.external_attendee_id, x.external_order_id,
           case when x.checked_in then now() end,
           -- the type of the attendee's Eventbrite ticket class (docs/decisions.md, "Ticket types")
           (select t.id from public.event_ticket_types t
            where t.event_id = e.id and t.external_ticket_class_id = x.ticket_class_id)
    from jsonb_to_recordset(${db.json(holders as never)}) as x(
      external_attendee_id text, external_order_id text, external_event_id text, email text,
      amount_paid numeric, status text, checked_in boolean, ticket_class_id text)
    join public.events e on e.workspace_id = ${workspaceId} and e.external_event_id = x.external_event_id
    join public.contacts c on c.workspace_id = ${workspaceId} and c.email = x.email
    on conflict (external_attendee_id) do update set
      status = excluded.status,
      amount_paid = excluded.amount_paid,
      ticket_type_id = coalesce(excluded.ticket_type_id, event_registrations.ticket_type_id),
      -- a check-in Eventbrite reports is recorded once; none is ever undone by a sync
      -- (docs/decisions.md, "Segments": attendance)
      checked_in_at = coalesce(event_registrations.checked_in_at, excluded.checked_in_at)
    where event_registrations.workspace_id = excluded.workspace_id
      and ((event_registrations.status, event_registrations.amount_paid)
             is distinct from (excluded.status, excluded.amount_paid)
           or (excluded.ticket_type_id is not null
               and event_registrations.ticket_type_id is distinct from excluded.ticket_type_id)
           or (event_registrations.checked_in_at is null and excluded.checked_in_at is not null))
    returning id`;
  return { registrations: written.length };
}

/** A sync's writes, in the caller's transaction. */
export async function importTicketingSnapshot(
  db: Db,
  input: { workspaceId: string; snapshot: TicketingSnapshot },
): Promise<{ events: number; registrations: number }> {
  const events = await importEvents(db, input.workspaceId, input.snapshot.events);
  const { registrations } = await importHolders(db, input.workspaceId, input.snapshot.holders);
  return { events: events.length, registrations };
}
