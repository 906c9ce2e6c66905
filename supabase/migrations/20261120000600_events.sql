-- Events, registrations, the ticketing connection (spec 2.7-2.9) and campaigns (spec 2.4.2).
-- Row-level security and grants: *_rls.sql.

create table public.events (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null,
  description text,
  location text,
  start_time timestamptz,
  end_time timestamptz,
  timezone text not null default 'UTC',
  external_event_id text,
  is_published boolean not null default false,
  website_title text,
  website_description text,
  ticket_price numeric(10,2),
  ticket_class_count integer not null default 0,
  eventbrite_url text,
  last_synced_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Events people can plan around: an optional number of seats. Null means
  -- unlimited. The RSVP endpoint counts 'registered' rows against it while holding the event
  -- row's lock (select ... for update), so concurrent RSVPs for the last seat queue and exactly
  -- one of them gets it; ticketing registrations are counted too but never refused (the
  -- provider sold the ticket).
  capacity integer constraint events_capacity_positive check (capacity is null or capacity > 0),
  constraint events_workspace_external_key unique (workspace_id, external_event_id),
  constraint events_workspace_id_id_key unique (workspace_id, id),
  constraint events_end_after_start check (end_time is null or start_time is null or end_time >= start_time)
);
create index events_workspace_start_idx on public.events (workspace_id, start_time);
create index events_published_idx on public.events (workspace_id, is_published, end_time);
-- events.updated_at kept by the database
create trigger events_updated_at before update on public.events
  for each row execute function public.set_updated_at();

create table public.event_registrations (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  event_id uuid not null,
  contact_id uuid not null,
  amount_paid numeric(10,2) not null default 0,
  status text not null default 'registered' check (status in ('registered', 'cancelled')),
  external_attendee_id text unique,
  external_order_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- the event and the contact belong to the registration's workspace (spec 5.4)
  foreign key (workspace_id, event_id) references public.events (workspace_id, id) on delete cascade,
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade
);
create index event_registrations_event_idx on public.event_registrations (event_id, status);
create index event_registrations_contact_idx on public.event_registrations (contact_id, workspace_id);
create index event_registrations_workspace_event_idx on public.event_registrations (workspace_id, event_id);
-- an RSVP (no ticketing attendee) registers a contact for an event once
create unique index event_registrations_rsvp_key on public.event_registrations (event_id, contact_id)
  where external_attendee_id is null;
-- event_registrations.updated_at kept by the database
create trigger event_registrations_updated_at before update on public.event_registrations
  for each row execute function public.set_updated_at();

create table public.ticketing_connections (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null unique references public.workspaces (id) on delete cascade,
  access_token text not null,
  organization_id text,
  organization_name text,
  webhook_id text,
  auto_subscribe_attendees boolean not null default false,
  connected_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Ticketing webhook secret (docs/decisions.md, "The ticketing webhook"): Eventbrite deliveries carry no
  -- signature, so the endpoint registered with Eventbrite carries a random secret in its query
  -- string (?secret=); the connection keeps only its lowercase hex SHA-256. A delivery is
  -- accepted only when its webhook_id names a connection and its secret matches this digest.
  -- A connection without one accepts nothing until reconnected. Members read neither this nor
  -- access_token (column privileges, *_rls.sql).
  webhook_secret_hash text check (webhook_secret_hash is null or webhook_secret_hash ~ '^[0-9a-f]{64}$'),
  -- what the settings page may show (members cannot read the digest): reconnect when false
  webhook_secured boolean generated always as (webhook_secret_hash is not null) stored
);
create index ticketing_connections_webhook_idx on public.ticketing_connections (webhook_id);
-- ticketing_connections.updated_at kept by the database
create trigger ticketing_connections_updated_at before update on public.ticketing_connections
  for each row execute function public.set_updated_at();

-- Campaigns and enrollments (spec 2.4.2; 3.2 cancels an event's enrollments on refund).
create table public.campaigns (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null,
  event_id uuid,
  status text not null default 'active' check (status in ('draft', 'active', 'paused', 'archived')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint campaigns_workspace_id_id_key unique (workspace_id, id),
  foreign key (workspace_id, event_id) references public.events (workspace_id, id)
    on delete set null (event_id)
);
create index campaigns_event_idx on public.campaigns (event_id, workspace_id);
-- campaigns.updated_at kept by the database
create trigger campaigns_updated_at before update on public.campaigns
  for each row execute function public.set_updated_at();

create table public.campaign_enrollments (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  campaign_id uuid not null,
  contact_id uuid not null,
  event_id uuid,
  status text not null default 'active' check (status in ('active', 'completed', 'cancelled')),
  enrolled_at timestamptz not null default now(),
  cancelled_at timestamptz,
  foreign key (workspace_id, campaign_id) references public.campaigns (workspace_id, id) on delete cascade,
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade,
  foreign key (workspace_id, event_id) references public.events (workspace_id, id)
    on delete set null (event_id)
);
create index campaign_enrollments_campaign_idx on public.campaign_enrollments (campaign_id, workspace_id);
create index campaign_enrollments_contact_idx on public.campaign_enrollments (contact_id, status);
create index campaign_enrollments_event_idx on public.campaign_enrollments (event_id, workspace_id);
create index campaign_enrollments_workspace_contact_idx on public.campaign_enrollments (workspace_id, contact_id);
create unique index campaign_enrollments_active_key on public.campaign_enrollments (campaign_id, contact_id)
  where status = 'active';
-- Spec 5.4: a row written without workspace_id takes its contact's
create trigger campaign_enrollments_fill_workspace before insert on public.campaign_enrollments
  for each row execute function public.fill_workspace_from_contact();
