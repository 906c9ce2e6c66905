-- Email engagement (DESIGN section 8, "Email engagement"; docs/decisions.md, "Email engagement"):
-- what happened to each email after it left, as Resend reports it (delivered, delayed, opened,
-- clicked, bounced, complained) plus the unsubscribes its link led to. One row per provider
-- event, keyed to the send; the workspace and broadcast are the send's, never the payload's.

-- Opens and clicks are recorded only when the workspace turns tracking on (off by default):
-- Admin+ choose it on the email settings page, as the other email settings.
alter table public.workspaces add column email_tracking_enabled boolean not null default false;
grant update (email_tracking_enabled) on public.workspaces to authenticated;

-- The events name their send together with its workspace (spec 5.4: no cross-workspace link).
alter table public.email_sends add constraint email_sends_workspace_id_id_key unique (workspace_id, id);

create table public.email_events (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  email_send_id uuid not null,
  -- the send's broadcast, copied so a broadcast's report reads one index range
  broadcast_id uuid,
  type text not null check (type in ('delivered', 'delivery_delayed', 'opened', 'clicked', 'bounced',
                                     'complained', 'unsubscribed')),
  occurred_at timestamptz not null,
  link_url text check (length(link_url) <= 2000),
  user_agent text check (length(user_agent) <= 1000),
  ip inet,
  -- the provider delivery's svix-id: a repeated delivery is stored once; null for unsubscribes,
  -- which come from the consent ledger
  svix_id text check (length(svix_id) <= 200),
  -- an open or click made by software, not the recipient (Apple Mail Privacy Protection's proxy,
  -- link scanners acting within seconds of delivery): counted, shown apart
  is_machine boolean not null default false,
  created_at timestamptz not null default now(),
  constraint email_events_svix_id_key unique (svix_id),
  foreign key (workspace_id, email_send_id) references public.email_sends (workspace_id, id) on delete cascade,
  foreign key (workspace_id, broadcast_id) references public.broadcasts (workspace_id, id)
    on delete set null (broadcast_id)
);
-- a send's events (the contact timeline, machine checks against the delivery time)
create index email_events_send_idx on public.email_events (email_send_id, workspace_id, occurred_at);
-- a broadcast's report: counts of sends per event type and their times, from the index alone
create index email_events_broadcast_idx on public.email_events
  (broadcast_id, workspace_id, type, email_send_id) include (occurred_at, is_machine)
  where broadcast_id is not null;
-- a broadcast's clicks per link
create index email_events_broadcast_links_idx on public.email_events
  (broadcast_id, workspace_id, link_url, email_send_id) include (is_machine)
  where broadcast_id is not null and type = 'clicked';
create index email_events_workspace_idx on public.email_events (workspace_id, occurred_at desc);

-- Written only by the system (the webhook route through the service door, the ledger trigger
-- below); members read their workspace's events, as they read email_sends.
alter table public.email_events enable row level security;
revoke all on public.email_events from anon, authenticated;
grant select on public.email_events to authenticated;
grant all on public.email_events to service_role;
-- SELECT(email_events): workspace members (spec 5.4: limited to the rows of the caller's workspaces)
create policy email_events_select_members on public.email_events for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

-- Each send's first event of each kind, kept by the database from email_events: a broadcast's
-- counts and timeline read one narrow row per send instead of every event (a broadcast of
-- 100,000 sends may have millions of opens). "human_" times leave out machine opens and clicks.
create table public.email_send_stats (
  email_send_id uuid primary key,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  broadcast_id uuid,
  delivered_at timestamptz,
  opened_at timestamptz,
  human_opened_at timestamptz,
  clicked_at timestamptz,
  human_clicked_at timestamptz,
  bounced_at timestamptz,
  complained_at timestamptz,
  unsubscribed_at timestamptz,
  foreign key (workspace_id, email_send_id) references public.email_sends (workspace_id, id) on delete cascade,
  foreign key (workspace_id, broadcast_id) references public.broadcasts (workspace_id, id)
    on delete set null (broadcast_id)
);
create index email_send_stats_workspace_send_idx on public.email_send_stats (workspace_id, email_send_id);
create index email_send_stats_broadcast_idx on public.email_send_stats (broadcast_id, workspace_id)
  where broadcast_id is not null;
alter table public.email_send_stats enable row level security;
revoke all on public.email_send_stats from anon, authenticated;
grant select on public.email_send_stats to authenticated;
grant all on public.email_send_stats to service_role;
-- SELECT(email_send_stats): workspace members (spec 5.4: limited to the rows of the caller's workspaces)
create policy email_send_stats_select_members on public.email_send_stats for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

-- Recomputes the first times of the given sends from their events (a send has a handful).
create or replace function public.refresh_email_send_stats(send_ids uuid[]) returns void
language sql security definer
set search_path = ''
as $$
  insert into public.email_send_stats as t
    (email_send_id, workspace_id, broadcast_id, delivered_at, opened_at, human_opened_at, clicked_at,
     human_clicked_at, bounced_at, complained_at, unsubscribed_at)
  select e.email_send_id, e.workspace_id, (array_agg(e.broadcast_id))[1],
         min(e.occurred_at) filter (where e.type = 'delivered'),
         min(e.occurred_at) filter (where e.type = 'opened'),
         min(e.occurred_at) filter (where e.type = 'opened' and not e.is_machine),
         min(e.occurred_at) filter (where e.type = 'clicked'),
         min(e.occurred_at) filter (where e.type = 'clicked' and not e.is_machine),
         min(e.occurred_at) filter (where e.type = 'bounced'),
         min(e.occurred_at) filter (where e.type = 'complained'),
         min(e.occurred_at) filter (where e.type = 'unsubscribed')
  from public.email_events e
  -- a join, not `= any (send_ids)`: a generic plan would test every event against the whole array
  where e.email_send_id in (select unnest(send_ids))
  group by e.email_send_id, e.workspace_id
  on conflict (email_send_id) do update set
    broadcast_id = excluded.broadcast_id, delivered_at = excluded.delivered_at, opened_at = excluded.opened_at,
    human_opened_at = excluded.human_opened_at, clicked_at = excluded.clicked_at,
    human_clicked_at = excluded.human_clicked_at, bounced_at = excluded.bounced_at,
    complained_at = excluded.complained_at, unsubscribed_at = excluded.unsubscribed_at
$$;

create or replace function public.email_events_refresh_stats() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform public.refresh_email_send_stats(array(select distinct email_send_id from new_rows));
  return null;
end
$$;
-- email_send_stats follows the events stored
create trigger email_events_stats_insert after insert on public.email_events
  referencing new table as new_rows for each statement execute function public.email_events_refresh_stats();
-- email_send_stats follows the events reclassified (is_machine) or anonymised
create trigger email_events_stats_update after update on public.email_events
  referencing new table as new_rows for each statement execute function public.email_events_refresh_stats();

-- Sends that bounced or drew a complaint before this table existed keep those outcomes as events.
insert into public.email_events (workspace_id, email_send_id, broadcast_id, type, occurred_at)
select workspace_id, id, broadcast_id, status, coalesce(sent_at, created_at)
from public.email_sends
where workspace_id is not null and status in ('bounced', 'complained');

-- An unsubscribe the recipient made (the link in an email, spec 4.7; not a member's action in
-- the dashboard) counts for the last marketing email they were sent before it.
create or replace function public.consent_events_email_unsubscribes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.email_events (workspace_id, email_send_id, broadcast_id, type, occurred_at)
  select s.workspace_id, s.id, s.broadcast_id, 'unsubscribed', n.created_at
  from new_rows n
  cross join lateral (
    select e.workspace_id, e.id, e.broadcast_id from public.email_sends e
    where e.contact_id = n.contact_id and e.workspace_id = n.workspace_id and e.kind = 'marketing'
      and e.status in ('sent', 'outbox', 'bounced', 'complained') and e.sent_at <= n.created_at
    order by e.sent_at desc
    limit 1) s
  where n.action = 'unsubscribed' and n.actor_user_id is null and n.flow <> 'manual_unsubscribe';
  return null;
end
$$;
-- the unsubscribes of a broadcast's recipients, attributed to the email they came from
create trigger consent_events_email_unsubscribes after insert on public.consent_events
  referencing new table as new_rows
  for each statement execute function public.consent_events_email_unsubscribes();

-- Outbound webhooks (docs/decisions.md, "Outbound webhooks"): email.delivered, email.opened,
-- email.clicked, email.bounced, written with the event's row. No IP or user agent leaves.
create or replace function public.email_events_webhook_events() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  t text;
begin
  if not exists (select 1 from public.webhook_endpoints limit 1) then
    return null;
  end if;
  foreach t in array array['delivered', 'opened', 'clicked', 'bounced'] loop
    perform public.emit_webhook_events('email.' || t,
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data',
                jsonb_build_object('id', n.id, 'email_send_id', n.email_send_id, 'broadcast_id', n.broadcast_id,
                                   'contact_id', s.contact_id, 'type', n.type, 'occurred_at', n.occurred_at,
                                   'link_url', n.link_url, 'is_machine', n.is_machine)))
       from new_rows n join public.email_sends s on s.id = n.email_send_id
       where n.type = t));
  end loop;
  return null;
end
$$;
-- email.delivered / opened / clicked / bounced for events stored
create trigger email_events_webhooks after insert on public.email_events
  referencing new table as new_rows for each statement execute function public.email_events_webhook_events();
