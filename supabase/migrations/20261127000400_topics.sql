-- Subscription topics and the preference centre (docs/decisions.md, "Subscription topics").
-- A workspace defines topics ('Newsletter', 'Events'); consent is recorded per topic in the
-- consent ledger (consent_events.topic_id) and held as state in contact_topics, which the
-- broadcast audience reads. contacts.is_subscribed stays spec 3.3's overall marketing flag: on
-- while any topic is on. A workspace without topics behaves exactly as before.

create table public.email_topics (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  key text not null check (key ~ '^[a-z0-9][a-z0-9_-]{0,49}$'),
  name text not null check (length(btrim(name)) between 1 and 100),
  description text not null default '' check (length(description) <= 500),
  -- a subscribe that chooses no topic (manual, RSVP, payments, ...) joins the default topics,
  -- or every topic when none is marked default
  default_on boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint email_topics_workspace_key_key unique (workspace_id, key),
  constraint email_topics_workspace_id_id_key unique (workspace_id, id)
);
-- email_topics.updated_at kept by the database
create trigger email_topics_updated_at before update on public.email_topics
  for each row execute function public.set_updated_at();

-- Per-contact topic state. A row per topic the contact ever joined or left; `subscribed` is
-- the current state, the ledger (consent_events.topic_id) the proof of each change.
create table public.contact_topics (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  contact_id uuid not null,
  topic_id uuid not null,
  subscribed boolean not null,
  changed_at timestamptz not null default now(),
  primary key (contact_id, topic_id),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade,
  foreign key (workspace_id, topic_id) references public.email_topics (workspace_id, id) on delete cascade
);
-- the broadcast audience: the subscribers of one topic
create index contact_topics_topic_idx on public.contact_topics (topic_id, contact_id) where subscribed;
create index contact_topics_workspace_idx on public.contact_topics (workspace_id, contact_id);

-- The ledger names the topic a change concerns; null: the contact's overall consent (every
-- topic), as before topics.
alter table public.consent_events add column topic_id uuid;
alter table public.consent_events
  add constraint consent_events_topic_fkey foreign key (workspace_id, topic_id)
  references public.email_topics (workspace_id, id);
create index consent_events_topic_idx on public.consent_events (topic_id) where topic_id is not null;

-- Forms choose the topics a submission subscribes to (none chosen: the default topics). Ids of
-- another workspace's topics are ignored where they are read (lib/consent/topics.ts).
alter table public.forms add column topic_ids uuid[] not null default '{}';

-- A broadcast goes to the subscribers of one topic; null: every subscribed contact.
alter table public.broadcasts add column topic_id uuid;
alter table public.broadcasts
  add constraint broadcasts_topic_fkey foreign key (workspace_id, topic_id)
  references public.email_topics (workspace_id, id);
create index broadcasts_topic_idx on public.broadcasts (topic_id) where topic_id is not null;

-- is_subscribed = any topic on, for the writers that know nothing of topics (forms without a
-- choice, RSVP, payments, ticketing, CSV import, the contact form, the REST API): a contact
-- subscribed with no topic on joins the default topics; an unsubscribed one leaves every topic.
-- A workspace without topics is untouched.
create or replace function public.sync_contact_topics(p_contact_id uuid) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  c record;
begin
  select id, workspace_id, is_subscribed into c from public.contacts where id = p_contact_id;
  if not found or not exists (select 1 from public.email_topics t where t.workspace_id = c.workspace_id) then
    return;
  end if;
  if not c.is_subscribed then
    update public.contact_topics set subscribed = false, changed_at = now()
    where contact_id = c.id and subscribed;
  elsif not exists (select 1 from public.contact_topics ct where ct.contact_id = c.id and ct.subscribed) then
    insert into public.contact_topics (workspace_id, contact_id, topic_id, subscribed)
    select c.workspace_id, c.id, t.id, true
    from public.email_topics t
    where t.workspace_id = c.workspace_id
      and (t.default_on or not exists (select 1 from public.email_topics d
                                       where d.workspace_id = c.workspace_id and d.default_on))
    on conflict (contact_id, topic_id) do update set subscribed = true, changed_at = now();
  end if;
end
$$;

create or replace function public.contacts_sync_topics() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform public.sync_contact_topics(new.id);
  return null;
end
$$;

-- Deferred to commit: a flow that chooses topics writes them after the contact's columns, and
-- the rule then finds a topic on and adds no default.
create constraint trigger contacts_sync_topics_insert after insert on public.contacts
  deferrable initially deferred
  for each row when (new.is_subscribed) execute function public.contacts_sync_topics();
create constraint trigger contacts_sync_topics_update after update of is_subscribed on public.contacts
  deferrable initially deferred
  for each row when (old.is_subscribed is distinct from new.is_subscribed)
  execute function public.contacts_sync_topics();

-- A workspace's first topic holds every contact already subscribed (their consent to the
-- workspace's marketing predates topics), so is_subscribed = any topic on from the start.
-- Later topics start empty.
create or replace function public.email_topics_first_topic() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.email_topics t where t.workspace_id = new.workspace_id and t.id <> new.id) then
    insert into public.contact_topics (workspace_id, contact_id, topic_id, subscribed)
    select new.workspace_id, c.id, new.id, true
    from public.contacts c
    where c.workspace_id = new.workspace_id and c.is_subscribed
    on conflict (contact_id, topic_id) do nothing;
  end if;
  return null;
end
$$;
create trigger email_topics_first_topic after insert on public.email_topics
  for each row execute function public.email_topics_first_topic();

-- email_topics (beyond the spec 5.4 matrix): SELECT members; written by the service after an
-- owner/admin check (docs/decisions.md, "The database is the boundary")
alter table public.email_topics enable row level security;
revoke all on public.email_topics from anon, authenticated;
grant all on public.email_topics to service_role;
grant select on public.email_topics to authenticated;
-- SELECT(email_topics): beyond the spec 5.4 matrix (subscription topics): workspace members
create policy email_topics_select_members on public.email_topics for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

-- contact_topics (beyond the spec 5.4 matrix): SELECT members; written only by the consent
-- flows (service) with their ledger entry
alter table public.contact_topics enable row level security;
revoke all on public.contact_topics from anon, authenticated;
grant all on public.contact_topics to service_role;
grant select on public.contact_topics to authenticated;
-- SELECT(contact_topics): beyond the spec 5.4 matrix (subscription topics): workspace members
create policy contact_topics_select_members on public.contact_topics for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

revoke execute on function public.sync_contact_topics(uuid), public.contacts_sync_topics(),
  public.email_topics_first_topic() from public, anon, authenticated;
grant execute on function public.sync_contact_topics(uuid) to service_role;
