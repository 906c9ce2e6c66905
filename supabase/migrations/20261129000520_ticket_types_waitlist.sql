-- Ticket types and the waitlist (DESIGN section 9, "Events"; docs/decisions.md, "Ticket types" and
-- "A waitlist that fills itself"). The event's capacity stays the overall cap; a type may cap its
-- own share. A registration names its type and, while it waits, its place in line.

-- A kind of seat at an event: its name, its own cap (null: only the event's), its price (the paid
-- path, Stripe Checkout, reads price_cents; the free RSVP takes only price 0), when it is on sale,
-- and whether it is hidden (offered only with its access code, compared case-insensitively, at most
-- access_code_limit times). external_ticket_class_id: the Eventbrite ticket class it came from.
create table public.event_ticket_types (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  event_id uuid not null,
  name text not null check (length(name) between 1 and 200),
  description text check (length(description) <= 2000),
  capacity integer check (capacity is null or capacity > 0),
  price_cents integer not null default 0 check (price_cents >= 0),
  sales_start_at timestamptz,
  sales_end_at timestamptz,
  is_hidden boolean not null default false,
  access_code text check (access_code is null or length(access_code) between 1 and 100),
  access_code_limit integer check (access_code_limit is null or access_code_limit > 0),
  access_code_uses integer not null default 0 check (access_code_uses >= 0),
  sort_order integer not null default 0,
  external_ticket_class_id text check (length(external_ticket_class_id) <= 100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint event_ticket_types_sales_window check (
    sales_start_at is null or sales_end_at is null or sales_end_at > sales_start_at),
  -- a hidden type is reachable only through its code
  constraint event_ticket_types_hidden_has_code check (not is_hidden or access_code is not null),
  unique (workspace_id, id),
  -- the key a registration names its type by: a type of the registration's own event
  unique (workspace_id, event_id, id),
  foreign key (workspace_id, event_id) references public.events (workspace_id, id) on delete cascade
);
-- the event's list (and the key's referential action)
create index event_ticket_types_event_idx on public.event_ticket_types (workspace_id, event_id, sort_order);
-- a code names one type of its event, whatever its case
create unique index event_ticket_types_access_code_key on public.event_ticket_types (event_id, lower(access_code))
  where access_code is not null;
-- one type per Eventbrite ticket class of an event (the import's upsert key)
create unique index event_ticket_types_external_key on public.event_ticket_types (event_id, external_ticket_class_id)
  where external_ticket_class_id is not null;
create trigger event_ticket_types_updated_at before update on public.event_ticket_types
  for each row execute function public.set_updated_at();
alter table public.event_ticket_types enable row level security;
-- SELECT(event_ticket_types): workspace members read the types (the event page)
create policy event_ticket_types_select_members on public.event_ticket_types for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- written only through the app (lib/events/ticket-types/ticket-types.ts, as the service, once the
-- caller is checked as an owner or admin): a capacity below the seats taken is refused there under
-- the event's lock, which a direct PostgREST write would skip
revoke all on public.event_ticket_types from anon, authenticated;
grant select on public.event_ticket_types to authenticated;
grant all on public.event_ticket_types to service_role;

-- The waitlist's per-event settings: off by default (a full event then answers as before), and how
-- long an offer stays claimable.
alter table public.events
  add column waitlist_enabled boolean not null default false,
  add column offer_hours integer not null default 24 check (offer_hours between 1 and 720);

-- Where people wait: one number for every place in every line, drawn under the event's row lock,
-- so the numbers of one event follow the order the RSVPs took the lock in (first come, first served).
create sequence public.event_waitlist_seq as bigint;
grant usage on sequence public.event_waitlist_seq to service_role;

-- A registration's states: 'registered' and 'cancelled' (spec 2.8), 'waitlisted' (in line) and
-- 'offered' (a seat held for it until offer_expires_at). Seats taken are 'registered' and 'offered'
-- (lib/events/rsvp/seats.ts SEAT_STATUSES); a state that holds a seat for payment joins that list.
alter table public.event_registrations drop constraint event_registrations_status_check;
alter table public.event_registrations
  add constraint event_registrations_status_check
    check (status in ('registered', 'cancelled', 'waitlisted', 'offered')),
  add column ticket_type_id uuid,
  add column waitlist_position bigint,
  add column offered_at timestamptz,
  add column offer_expires_at timestamptz,
  -- sha-256 (hex) of the claim link's token: the token itself is only in the email
  add column offer_token_hash text check (offer_token_hash ~ '^[0-9a-f]{64}$'),
  add constraint event_registrations_offer_expiry check (status <> 'offered' or offer_expires_at is not null),
  add constraint event_registrations_workspace_id_event_id_ticket_type_id_fkey
    foreign key (workspace_id, event_id, ticket_type_id)
    references public.event_ticket_types (workspace_id, event_id, id);
-- the type's key finds its registrations (and the type's seat count reads them)
create index event_registrations_ticket_type_idx on public.event_registrations (workspace_id, event_id, ticket_type_id)
  where ticket_type_id is not null;
-- the line: an event's waiting registrations in order
create index event_registrations_waitlist_idx on public.event_registrations (event_id, waitlist_position)
  where status = 'waitlisted';
-- the sweep: offers whose time ran out
create index event_registrations_offer_expiry_idx on public.event_registrations (offer_expires_at)
  where status = 'offered';
-- a claim link's token finds its offer
create unique index event_registrations_offer_token_key on public.event_registrations (offer_token_hash)
  where offer_token_hash is not null;

-- Outbound webhooks: a registration is created when it takes its seat (an RSVP, an import, a claimed
-- offer), not while it waits; cancelled when a registered one is.
create or replace function public.event_registrations_webhook_events() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.webhook_endpoints limit 1) then
    return null;
  end if;
  if tg_op = 'INSERT' then
    perform public.emit_webhook_events('event_registration.created',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', to_jsonb(n)))
       from new_rows n where n.status = 'registered'));
    perform public.emit_webhook_events('rsvp.created',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', to_jsonb(n)))
       from new_rows n where n.external_attendee_id is null and n.status = 'registered'));
  else
    perform public.emit_webhook_events('event_registration.created',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', to_jsonb(n)))
       from new_rows n join old_rows o on o.id = n.id
       where n.status = 'registered' and o.status in ('waitlisted', 'offered')));
    perform public.emit_webhook_events('event_registration.cancelled',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', to_jsonb(n)))
       from new_rows n join old_rows o on o.id = n.id
       where n.status = 'cancelled' and o.status not in ('cancelled', 'waitlisted', 'offered')));
  end if;
  return null;
end
$$;
