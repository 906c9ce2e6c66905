-- Contacts (spec 2.4) and the records that hang off them (spec 2.4.2, 2.10): tags, tasks,
-- notes, companies, deals, appointments, agreements; the contacts list's search and counts
-- (spec 4.15 getContacts) and the dashboard's contact aggregates (home dashboard). Row-level
-- security and grants: *_rls.sql.
--
-- Tenant integrity: every link between two workspace-scoped rows is a composite foreign
-- key (workspace_id, x_id) -> parent (workspace_id, id), so a row can only point at a row of
-- its own workspace, whoever writes it (spec 5.4: "every table is limited to the rows of the
-- caller's workspaces"). Each parent carries `unique (workspace_id, id)` for that. Set-null
-- rules name the column (`on delete set null (contact_id)`, PostgreSQL 15+) so that
-- workspace_id is kept. Each such key has an index whose leading columns are its columns.

-- pg_trgm lives in the `extensions` schema, as on Supabase. A project where it was
-- already installed elsewhere keeps it there: the search index below looks the schema up.
create schema if not exists extensions;
grant usage on schema extensions to anon, authenticated, service_role;
create extension if not exists pg_trgm with schema extensions;

create table public.contacts (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  email text not null check (email <> ''),
  first_name text,
  last_name text,
  phone text,
  -- spec 2.4.1 (plus 'event', set by the RSVP endpoint)
  source text not null default 'manual'
    check (source in ('manual', 'form', 'import', 'ticketing', 'payproc', 'event')),
  address_line1 text,
  address_line2 text,
  city text,
  state text,
  postal_code text,
  country text,
  birth_month integer check (birth_month between 1 and 12),
  birth_day integer check (birth_day between 1 and 31),
  is_subscribed boolean not null default false,
  opt_in_timestamp timestamptz,
  opt_in_source text,
  opt_in_ip inet,
  unsubscribed_at timestamptz,
  assigned_user_id uuid references public.user_profiles (id) on delete set null,
  portal_token uuid default gen_random_uuid(),
  -- beyond the spec: who created and last changed the row (getContactById); null = system
  created_by uuid references public.user_profiles (id) on delete set null,
  updated_by uuid references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Beyond the spec (spec 4.15 getContacts `search`: email, names and phone): the text a
  -- search runs against, kept by the database. Email, first and last name (adjacent, so
  -- 'Ada Lovelace' matches), the phone as stored and its digits (so '202 555 0143' finds
  -- '(202) 555-0143'), lowercased. Stored, so that matching rows are checked by reading a
  -- column rather than recomputing the expression.
  search_text text generated always as (
    lower(
      coalesce(email, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '')
      || ' ' || coalesce(phone, '') || ' ' || regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g')
    )
  ) stored,
  -- Whether the contact has a hard suppression ('bounce', 'complaint' or 'manual': no email at
  -- all, spec 8.3), kept on the row by the trigger on contact_suppressions
  -- (contact_suppressions_flag, *_consent_email.sql), so that the dashboard's consent share
  -- (home dashboard) and the list filter behind it never join the suppressions.
  email_suppressed boolean not null default false,
  constraint contacts_workspace_email_key unique (workspace_id, email),
  constraint contacts_workspace_id_id_key unique (workspace_id, id),
  constraint contacts_birthday_paired check ((birth_month is null) = (birth_day is null))
);
create index contacts_workspace_created_idx on public.contacts (workspace_id, created_at desc, id desc);
create index contacts_workspace_name_idx on public.contacts (workspace_id, first_name, last_name, id);
-- Spec 4.15 getContacts at 1,000,000 contacts: `source` is both a filter (then ordered by
-- created_at, id) and a sort key (source, created_at, id), in either direction. One index
-- in that order serves all four, read forwards or backwards.
create index contacts_workspace_source_created_idx on public.contacts (workspace_id, source, created_at, id);
-- assigned_user_id, created_by, updated_by: these indexes exist for the foreign keys'
-- ON DELETE SET NULL (finding a deleted profile's contacts), which never looks for null; a
-- full index cost a bulk import (spec 4.15 CSV import: 100,000 rows a file) ~0.25 s per
-- 100,000 contacts each while indexing only nulls for imported, form and webhook contacts.
create index contacts_assigned_user_idx on public.contacts (assigned_user_id) where assigned_user_id is not null;
create index contacts_created_by_idx on public.contacts (created_by) where created_by is not null;
create index contacts_updated_by_idx on public.contacts (updated_by) where updated_by is not null;
create unique index contacts_portal_token_key on public.contacts (portal_token);

-- Spec 4.15 getContacts `search`: a trigram index answers case-insensitive substring matches
-- (LIKE '%term%') on search_text, so a search over 1,000,000 contacts reads the index, not
-- the table. The operator class is looked up where pg_trgm is installed.
do $$
declare
  ext_schema text := (
    select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'
  );
begin
  execute format(
    'create index if not exists contacts_search_trgm_idx on public.contacts using gin (search_text %I.gin_trgm_ops)',
    ext_schema);
end
$$;

-- Emails are unique per workspace regardless of case or surrounding blanks, and
-- the signed-in user (null for system writers) is recorded as creator and modifier
-- (spec 4.15 getContactById's last modifier). A write changing nothing but email_suppressed
-- (contact_suppressions_flag: a bounce, a complaint, an administrator's block) is not an
-- edit of the contact and keeps its modifier and time.
create or replace function public.contacts_before_write() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.email := lower(btrim(new.email));
  if tg_op = 'INSERT' then
    new.created_by := coalesce(new.created_by, (select auth.uid()));
    new.updated_by := coalesce(new.updated_by, new.created_by);
  elsif new.email_suppressed is distinct from old.email_suppressed
    -- (search_text is generated: not yet computed in a BEFORE trigger's new row)
    and to_jsonb(new) - array['email_suppressed', 'updated_at', 'updated_by', 'search_text']
      = to_jsonb(old) - array['email_suppressed', 'updated_at', 'updated_by', 'search_text'] then
    new.updated_by := old.updated_by;
    new.updated_at := old.updated_at;
  else
    new.updated_by := (select auth.uid());
    new.updated_at := now();
  end if;
  return new;
end
$$;
-- Spec 8.2 (one contact per workspace and email, whatever the case) and spec 4.10 (who
-- changed a contact): normalise the email, record creator and modifier
create trigger contacts_before_write before insert or update on public.contacts
  for each row execute function public.contacts_before_write();

-- Spec 4.15, last paragraph: contacts.source is protected. Without a signed-in user
-- (webhooks, form endpoints, sync jobs) an existing source is forced back; a signed-in
-- owner or admin may change it. Members cannot either (they use updateContactSource,
-- which refuses them).
create or replace function public.protect_contact_source() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.source is not null and new.source is distinct from old.source
     and ((select auth.uid()) is null
          or not public.has_workspace_role(old.workspace_id, array['owner', 'admin']))
  then
    new.source := old.source;
  end if;
  return new;
end
$$;
-- Spec 4.15, last paragraph: contacts.source is protected from system writers and members
create trigger contacts_protect_source before update of source on public.contacts
  for each row execute function public.protect_contact_source();
create table public.tags (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 100),
  color text,
  created_at timestamptz not null default now(),
  constraint tags_workspace_name_key unique (workspace_id, name),
  constraint tags_workspace_id_id_key unique (workspace_id, id)
);

-- contact_tags.workspace_id has no key of its own to workspaces: the two composite keys
-- (workspace_id, contact_id) -> contacts and (workspace_id, tag_id) -> tags imply it, since each
-- parent references workspaces, and cascade a workspace's deletion through its contacts and tags.
-- A third key would only cost a third of the referential checks of a CSV import's tags
-- (docs/performance.md, "The CSV import's floor"). Spec 5.4's rule (no cross-workspace links) rests on them.
create table public.contact_tags (
  contact_id uuid not null,
  tag_id uuid not null,
  workspace_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (contact_id, tag_id),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade,
  foreign key (workspace_id, tag_id) references public.tags (workspace_id, id) on delete cascade
);
-- Tag filters (spec 4.15: any / all / exclude) read contact ids by tag. Under RLS each row's
-- workspace_id is checked as well; with it in the index the reads are index-only.
create index contact_tags_tag_workspace_contact_idx on public.contact_tags (tag_id, workspace_id, contact_id);
create index contact_tags_workspace_contact_idx on public.contact_tags (workspace_id, contact_id);
-- Spec 2.10 (contact_tags: contact_id, tag id) and 5.4: a row written with only the spec's
-- columns takes its contact's workspace; the condition is checked without calling the function
create trigger contact_tags_fill_workspace before insert on public.contact_tags
  for each row when (new.workspace_id is null) execute function public.fill_workspace_from_contact();

-- Spec 2.10 and 3.6: tasks, with the link to a payment intent (refund review, spec 3.1).
create table public.tasks (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  contact_id uuid,
  title text not null default '',
  description text,
  kind text not null default 'general' check (kind in ('general', 'refund_review')),
  status text not null default 'open' check (status in ('open', 'in_progress', 'completed', 'cancelled')),
  due_date date,
  completed_at timestamptz,
  assigned_user_id uuid references public.user_profiles (id) on delete set null,
  payproc_payment_intent_id text,
  created_by uuid references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint tasks_workspace_id_id_key unique (workspace_id, id),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id)
    on delete set null (contact_id)
);
create index tasks_workspace_status_idx on public.tasks (workspace_id, status, due_date);
create index tasks_contact_idx on public.tasks (contact_id, workspace_id);
create index tasks_assigned_user_idx on public.tasks (assigned_user_id);
create index tasks_created_by_idx on public.tasks (created_by);
create index tasks_intent_idx on public.tasks (workspace_id, payproc_payment_intent_id) where payproc_payment_intent_id is not null;
-- tasks.updated_at kept by the database
create trigger tasks_updated_at before update on public.tasks
  for each row execute function public.set_updated_at();

-- Spec 2.10: notes carry HTML and plain text; created_by null is a system note ('System').
create table public.notes (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  contact_id uuid,
  task_id uuid,
  type text not null default 'contact' check (type in ('contact', 'task')),
  content text not null default '',
  content_text text not null default '',
  created_by uuid references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade,
  foreign key (workspace_id, task_id) references public.tasks (workspace_id, id) on delete cascade
);
create index notes_contact_created_idx on public.notes (contact_id, created_at desc);
create index notes_task_idx on public.notes (task_id, workspace_id);
create index notes_workspace_contact_idx on public.notes (workspace_id, contact_id);
create index notes_created_by_idx on public.notes (created_by);
-- Spec 2.10 (notes: contact_id) and 5.4: a note written without workspace_id takes its contact's
create trigger notes_fill_workspace before insert on public.notes
  for each row when (new.workspace_id is null) execute function public.fill_workspace_from_contact();
-- notes.updated_at kept by the database
create trigger notes_updated_at before update on public.notes
  for each row execute function public.set_updated_at();

-- Spec 2.4.2 and 2.10: companies, deals, appointments and agreements of a contact.
create table public.companies (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null,
  created_at timestamptz not null default now(),
  constraint companies_workspace_id_id_key unique (workspace_id, id)
);

create table public.company_contacts (
  company_id uuid not null,
  contact_id uuid not null,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (company_id, contact_id),
  foreign key (workspace_id, company_id) references public.companies (workspace_id, id) on delete cascade,
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade
);
create index company_contacts_contact_idx on public.company_contacts (contact_id, workspace_id);
create index company_contacts_workspace_company_idx on public.company_contacts (workspace_id, company_id);
-- Spec 5.4: a row written without workspace_id takes its contact's (spec 2.4.2 record)
create trigger company_contacts_fill_workspace before insert on public.company_contacts
  for each row execute function public.fill_workspace_from_contact();

create table public.deals (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  contact_id uuid,
  title text not null,
  value numeric(10,2),
  stage text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint deals_workspace_id_id_key unique (workspace_id, id),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id)
    on delete set null (contact_id)
);
create index deals_contact_idx on public.deals (contact_id, workspace_id);
-- deals.updated_at kept by the database
create trigger deals_updated_at before update on public.deals
  for each row execute function public.set_updated_at();

create table public.deal_payments (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  deal_id uuid not null,
  label text not null default '',
  amount numeric(10,2) not null default 0,
  currency text not null default 'usd',
  status text not null default 'pending' check (status in ('pending', 'paid', 'cancelled')),
  paid_at timestamptz,
  created_at timestamptz not null default now(),
  foreign key (workspace_id, deal_id) references public.deals (workspace_id, id) on delete cascade
);
create index deal_payments_deal_idx on public.deal_payments (deal_id, workspace_id);
create index deal_payments_workspace_idx on public.deal_payments (workspace_id);

create table public.appointments (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  title text not null,
  start_time timestamptz,
  end_time timestamptz,
  created_at timestamptz not null default now(),
  constraint appointments_workspace_id_id_key unique (workspace_id, id)
);

create table public.appointment_external_attendees (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  appointment_id uuid not null,
  contact_id uuid not null,
  created_at timestamptz not null default now(),
  foreign key (workspace_id, appointment_id) references public.appointments (workspace_id, id) on delete cascade,
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade
);
create index appointment_attendees_appointment_idx on public.appointment_external_attendees (appointment_id, workspace_id);
create index appointment_attendees_contact_idx on public.appointment_external_attendees (contact_id, workspace_id);
create index appointment_attendees_workspace_idx on public.appointment_external_attendees (workspace_id);
-- Spec 5.4: a row written without workspace_id takes its contact's (spec 2.4.2 record)
create trigger appointment_attendees_fill_workspace before insert on public.appointment_external_attendees
  for each row execute function public.fill_workspace_from_contact();

create table public.agreements (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  title text not null,
  created_at timestamptz not null default now(),
  constraint agreements_workspace_id_id_key unique (workspace_id, id)
);

create table public.agreement_contacts (
  agreement_id uuid not null,
  contact_id uuid not null,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (agreement_id, contact_id),
  foreign key (workspace_id, agreement_id) references public.agreements (workspace_id, id) on delete cascade,
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade
);
create index agreement_contacts_contact_idx on public.agreement_contacts (contact_id, workspace_id);
create index agreement_contacts_workspace_agreement_idx on public.agreement_contacts (workspace_id, agreement_id);
-- Spec 5.4: a row written without workspace_id takes its contact's (spec 2.4.2 record)
create trigger agreement_contacts_fill_workspace before insert on public.agreement_contacts
  for each row execute function public.fill_workspace_from_contact();

-- Spec 4.15 getContacts returns the total count of matches. Counting a million contacts
-- row by row takes about half a second, so the count of each workspace's contacts per
-- source is kept here, by statement-level triggers on contacts: one upsert per statement
-- and (workspace, source), never one per row. getContacts reads it when no search, event
-- or tag-inclusion filter narrows the list.
-- Each counter is split into shards chosen by the writing backend (pg_backend_pid() % 64): a
-- pooled connection always writes its own shard, so concurrent writers in one workspace rarely
-- wait on each other's row lock until commit (one row per (workspace, source) held concurrent
-- form submissions to ~250 requests/s). Readers sum n over a workspace's rows.
create table public.contact_counts (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  source text not null,
  n bigint not null default 0,
  shard smallint not null default 0,
  primary key (workspace_id, source, shard)
);

-- Adds signed deltas per (workspace, source), in key order so that concurrent statements
-- lock counters in the same order. A workspace being deleted is skipped (its counters go
-- with it). PL/pgSQL rather than SQL: a SQL function with a SET clause cannot be inlined and
-- is parsed and planned again on every call; here the insert's plan is cached per session.
create or replace function public.contact_counts_add(workspace_ids uuid[], sources text[], deltas bigint[])
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.contact_counts as cc (workspace_id, source, shard, n)
  select d.workspace_id, d.source, pg_backend_pid() % 64, d.delta
  from unnest(workspace_ids, sources, deltas) as d(workspace_id, source, delta)
  where d.delta <> 0 and exists (select 1 from public.workspaces w where w.id = d.workspace_id)
  order by d.workspace_id, d.source
  on conflict (workspace_id, source, shard) do update set n = cc.n + excluded.n;
end
$$;
revoke execute on function public.contact_counts_add(uuid[], text[], bigint[]) from public, anon, authenticated;

-- Keeps contact_counts: contacts inserted, deleted, or moved to another source
create or replace function public.contact_counts_after_write() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform public.contact_counts_add(array_agg(workspace_id), array_agg(source), array_agg(n))
    from (select workspace_id, source, count(*) as n from new_rows group by 1, 2) d;
  elsif tg_op = 'DELETE' then
    perform public.contact_counts_add(array_agg(workspace_id), array_agg(source), array_agg(-n))
    from (select workspace_id, source, count(*) as n from old_rows group by 1, 2) d;
  else
    perform public.contact_counts_add(array_agg(workspace_id), array_agg(source), array_agg(n))
    from (
      select workspace_id, source, sum(n)::bigint as n
      from (
        select o.workspace_id, o.source, -1 as n from old_rows o join new_rows r on r.id = o.id
        where (o.workspace_id, o.source) is distinct from (r.workspace_id, r.source)
        union all
        select r.workspace_id, r.source, 1 from old_rows o join new_rows r on r.id = o.id
        where (o.workspace_id, o.source) is distinct from (r.workspace_id, r.source)
      ) moves
      group by 1, 2
    ) d;
  end if;
  return null;
end
$$;

-- Spec 4.15 getContacts total: contacts inserted add to their (workspace, source) count
create trigger contact_counts_insert after insert on public.contacts
  referencing new table as new_rows
  for each statement execute function public.contact_counts_after_write();
-- Spec 4.15 getContacts total: contacts deleted subtract from it
create trigger contact_counts_delete after delete on public.contacts
  referencing old table as old_rows
  for each statement execute function public.contact_counts_after_write();
-- Spec 4.15 getContacts total: contacts moved to another source or workspace move their count
create trigger contact_counts_update after update on public.contacts
  referencing old table as old_rows new table as new_rows
  for each statement execute function public.contact_counts_after_write();

-- The home dashboard (docs/decisions.md, "Home dashboard") reads kept aggregates, so it answers as fast at a
-- million contacts as at a hundred. Like contact_counts, each is kept by statement-level
-- triggers (one upsert per statement and key, never one per row) and split into shards chosen
-- by the writing backend, so concurrent writers of one workspace rarely wait on one row.
-- Days are UTC dates. (Form activity per day: form_daily_counts, *_forms.sql.)

-- New contacts per day and source (the "contacts over time by source" chart), of the contacts
-- that exist: a deleted contact is taken off its day, a changed source moves it.
create table public.contact_daily_counts (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  day date not null,
  source text not null,
  shard smallint not null default 0,
  n bigint not null default 0,
  primary key (workspace_id, day, source, shard)
);

-- Contacts per email status, the consent share: 'suppressed' (a hard suppression, whatever
-- the consent), then spec 3.4's priorities 3 to 5: 'unsubscribed' (unsubscribed_at set),
-- 'subscribed' (is_subscribed), 'not_opted_in' (otherwise).
create table public.contact_status_counts (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  status text not null check (status in ('subscribed', 'not_opted_in', 'unsubscribed', 'suppressed')),
  shard smallint not null default 0,
  n bigint not null default 0,
  primary key (workspace_id, status, shard)
);

-- A contact's status in contact_status_counts, from the columns that decide it.
create or replace function public.contact_email_status(
  is_subscribed boolean, unsubscribed_at timestamptz, email_suppressed boolean
) returns text language sql immutable
set search_path = ''
as $$
  select case when email_suppressed then 'suppressed' when unsubscribed_at is not null then 'unsubscribed'
              when is_subscribed then 'subscribed' else 'not_opted_in' end
$$;

-- Adds signed deltas: to contact_daily_counts where day is set, to contact_status_counts
-- where status is set; in key order, so concurrent statements lock counters in one order. A
-- workspace being deleted is skipped (its counters go with it).
create or replace function public.contact_stats_add(
  workspace_ids uuid[], days date[], sources text[], statuses text[], deltas bigint[]
) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  with d as (
    select * from unnest(workspace_ids, days, sources, statuses, deltas) as d(workspace_id, day, source, status, delta)
    where exists (select 1 from public.workspaces w where w.id = d.workspace_id)
  ), daily as (
    insert into public.contact_daily_counts as cc (workspace_id, day, source, shard, n)
    select workspace_id, day, source, pg_backend_pid() % 16, sum(delta) from d
    where day is not null group by 1, 2, 3 having sum(delta) <> 0 order by 1, 2, 3
    on conflict (workspace_id, day, source, shard) do update set n = cc.n + excluded.n
  )
  insert into public.contact_status_counts as sc (workspace_id, status, shard, n)
  select workspace_id, status, pg_backend_pid() % 16, sum(delta) from d
  where status is not null group by 1, 2 having sum(delta) <> 0 order by 1, 2
  on conflict (workspace_id, status, shard) do update set n = sc.n + excluded.n;
end
$$;
revoke execute on function public.contact_stats_add(uuid[], date[], text[], text[], bigint[])
  from public, anon, authenticated;

-- Keeps both from one statement's rows: +1 for a new row's keys, -1 for an old row's keys,
-- and on update only for the keys that changed.
create or replace function public.contact_stats_after_write() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform public.contact_stats_add(array_agg(workspace_id), array_agg(day), array_agg(source),
                                     array_agg(status), array_agg(n))
    from (select workspace_id, (created_at at time zone 'UTC')::date as day, source,
                 public.contact_email_status(is_subscribed, unsubscribed_at, email_suppressed) as status, count(*) as n
          from new_rows group by 1, 2, 3, 4) d;
  elsif tg_op = 'DELETE' then
    perform public.contact_stats_add(array_agg(workspace_id), array_agg(day), array_agg(source),
                                     array_agg(status), array_agg(-n))
    from (select workspace_id, (created_at at time zone 'UTC')::date as day, source,
                 public.contact_email_status(is_subscribed, unsubscribed_at, email_suppressed) as status, count(*) as n
          from old_rows group by 1, 2, 3, 4) d;
  else
    perform public.contact_stats_add(array_agg(workspace_id), array_agg(day), array_agg(source),
                                     array_agg(status), array_agg(delta))
    from (
      with c as (
        select o.workspace_id,
               (o.created_at at time zone 'UTC')::date as old_day, o.source as old_source,
               public.contact_email_status(o.is_subscribed, o.unsubscribed_at, o.email_suppressed) as old_status,
               (r.created_at at time zone 'UTC')::date as new_day, r.source as new_source,
               public.contact_email_status(r.is_subscribed, r.unsubscribed_at, r.email_suppressed) as new_status
        from old_rows o join new_rows r on r.id = o.id
      ), m as (
        select *, (old_day, old_source) is distinct from (new_day, new_source) as moved,
               old_status is distinct from new_status as restated
        from c where (old_day, old_source, old_status) is distinct from (new_day, new_source, new_status)
      )
      select workspace_id, case when moved then old_day end as day, case when moved then old_source end as source,
             case when restated then old_status end as status, -1::bigint as delta from m
      union all
      select workspace_id, case when moved then new_day end, case when moved then new_source end,
             case when restated then new_status end, 1 from m
    ) d;
  end if;
  return null;
end
$$;

-- Home dashboard: contacts inserted add to their day, source and email status counts
create trigger contact_stats_insert after insert on public.contacts
  referencing new table as new_rows
  for each statement execute function public.contact_stats_after_write();
-- Home dashboard: contacts deleted are taken off them
create trigger contact_stats_delete after delete on public.contacts
  referencing old table as old_rows
  for each statement execute function public.contact_stats_after_write();
-- Home dashboard: a changed source or email status moves the contact's counts
create trigger contact_stats_update after update on public.contacts
  referencing old table as old_rows new table as new_rows
  for each statement execute function public.contact_stats_after_write();

-- Spec 4.15 getContacts `search`, under row-level security.
-- LIKE is not a leakproof operator, so on a table with RLS Postgres evaluates it only
-- after the policies, row by row: the trigram index contacts_search_trgm_idx is never used
-- and a search over 1,000,000 contacts reads the whole table. This function runs the
-- search as its owner (with the index) and answers only for a workspace the caller
-- belongs to, or for the service role: the same rows the contacts policy shows. It
-- returns the columns the list filters and sorts on, so getContacts reads full rows for
-- one page only (under the policies).

-- SELECT(contacts) by search: members of the workspace (as contacts_members_all)
create or replace function public.search_contacts(ws uuid, patterns text[])
returns table (id uuid, workspace_id uuid, source text, created_at timestamptz, first_name text, last_name text)
language plpgsql stable security definer
set search_path = ''
rows 1000
as $$
begin
  if patterns is null or cardinality(patterns) = 0 then
    return;
  end if;
  if not (ws in (select public.user_workspace_ids()) or current_setting('role', true) = 'service_role') then
    return;
  end if;
  -- dynamic, so that each search is planned with its own pattern (the index needs a constant)
  return query execute
    'select c.id, c.workspace_id, c.source, c.created_at, c.first_name, c.last_name
     from public.contacts c
     where c.workspace_id = $1 and c.search_text like $2 and c.search_text like all ($3)'
    using ws, patterns[1], patterns;
end
$$;

revoke execute on function public.search_contacts(uuid, text[]) from public, anon;
grant execute on function public.search_contacts(uuid, text[]) to authenticated, service_role;

-- A dashboard CSV import above IMPORT_JOB_THRESHOLD_BYTES runs as a job
-- (docs/decisions.md, "Large imports as a job"). The upload is stored here (the file in the row, so that a
-- worker on any machine can read it) and the job is enqueued in the same transaction; the worker imports it
-- in one transaction, as the uploader, and marks the row done in that transaction. Progress (rows_done,
-- phase) is written by the worker in short transactions of its own, so that it is visible while the import
-- runs. The file content is cleared when the import ends; the row stays as the workspace's history.
create table public.contact_imports (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  created_by uuid references public.user_profiles (id) on delete set null,
  file_name text not null check (length(file_name) <= 255),
  file_size bigint not null check (file_size >= 0),
  -- the upload itself, bounded by the browser import's limit (BROWSER_IMPORT_MAX_BYTES); null
  -- once the import has ended
  content bytea,
  mark_subscribed boolean not null default false,
  uploader_ip inet,
  status text not null default 'queued' check (status in ('queued', 'running', 'succeeded', 'failed')),
  -- the rows counted at upload (blank lines and the header excluded); rows_done of them read so far
  rows_total integer not null default 0 check (rows_total >= 0),
  rows_done integer not null default 0 check (rows_done >= 0),
  phase text check (phase in ('reading', 'contacts', 'tags', 'notes')),
  attempts integer not null default 0,
  -- the import report (counts, skipped rows) once succeeded
  result jsonb,
  error text,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  constraint contact_imports_content_while_pending check (content is null or status in ('queued', 'running'))
);
create index contact_imports_workspace_idx on public.contact_imports (workspace_id, created_at desc);
create index contact_imports_created_by_idx on public.contact_imports (created_by) where created_by is not null;
