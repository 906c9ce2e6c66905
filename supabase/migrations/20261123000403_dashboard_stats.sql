-- The home dashboard (issue 16) reads kept aggregates, not the rows, so it answers as fast at a
-- million contacts as at a hundred. Like contact_counts, each is kept by statement-level
-- triggers (one upsert per statement and key, never one per row) and split into shards chosen
-- by the writing backend, so concurrent writers of one workspace rarely wait on one row.
-- Days are UTC dates.

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

-- Whether the contact has a hard suppression ('bounce', 'complaint' or 'manual': no email at
-- all, spec 8.3), kept on the row by the trigger on contact_suppressions below, so that the
-- consent share (and the list filter behind it) never join the suppressions.
alter table public.contacts add column email_suppressed boolean not null default false;

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

-- Form activity per day and form: submissions stored, submissions staged for verification
-- (pending rows are consumed when verified, so they are counted as they are created) and
-- verified submissions ('verified_email'). Counts of what happened: a later delete of a
-- submission (its contact erased) does not rewrite history.
create table public.form_daily_counts (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  form_id uuid not null,
  day date not null,
  shard smallint not null default 0,
  submissions bigint not null default 0,
  staged bigint not null default 0,
  verified bigint not null default 0,
  primary key (workspace_id, form_id, day, shard),
  foreign key (workspace_id, form_id) references public.forms (workspace_id, id) on delete cascade
);
create index form_daily_counts_form_idx on public.form_daily_counts (form_id, workspace_id);

-- Revenue and refunds of a period: an index-only range scan over the period's purchases.
create index transactions_workspace_date_idx on public.transactions (workspace_id, transaction_date)
  include (amount_paid, amount_refunded);

alter table public.contact_daily_counts enable row level security;
alter table public.contact_status_counts enable row level security;
alter table public.form_daily_counts enable row level security;
revoke all on public.contact_daily_counts, public.contact_status_counts, public.form_daily_counts
  from anon, authenticated;
grant select on public.contact_daily_counts, public.contact_status_counts, public.form_daily_counts
  to authenticated;
grant all on public.contact_daily_counts, public.contact_status_counts, public.form_daily_counts
  to service_role;
-- SELECT(contact_daily_counts): members of the workspace (5.4: contacts are theirs to see);
-- written only by the triggers below
create policy contact_daily_counts_select_members on public.contact_daily_counts for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- SELECT(contact_status_counts): members of the workspace (5.4); written only by the triggers below
create policy contact_status_counts_select_members on public.contact_status_counts for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- SELECT(form_daily_counts): members of the workspace (5.4: form_submissions SELECT is members);
-- written only by the triggers below
create policy form_daily_counts_select_members on public.form_daily_counts for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

create or replace function public.contact_email_status(
  is_subscribed boolean, unsubscribed_at timestamptz, email_suppressed boolean
) returns text language sql immutable
set search_path = ''
as $$
  select case when email_suppressed then 'suppressed' when unsubscribed_at is not null then 'unsubscribed'
              when is_subscribed then 'subscribed' else 'not_opted_in' end
$$;

-- contacts_before_write (spec 4.15 getContactById's last modifier) as before, except that a
-- write changing nothing but email_suppressed (the trigger below: a bounce, a complaint, an
-- administrator's block) is not an edit of the contact and keeps its modifier and time.
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

-- Keeps contacts.email_suppressed: for the contacts whose hard suppressions changed in the
-- statement, whether one is left. A contact being deleted (the cascade) is already gone.
create or replace function public.contact_suppressions_flag() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  ids uuid[];
begin
  if tg_op = 'INSERT' then
    ids := array(select distinct contact_id from new_rows where reason in ('bounce', 'complaint', 'manual'));
  elsif tg_op = 'DELETE' then
    ids := array(select distinct contact_id from old_rows where reason in ('bounce', 'complaint', 'manual'));
  else
    ids := array(select contact_id from old_rows union select contact_id from new_rows);
  end if;
  if cardinality(ids) = 0 then
    return null;
  end if;
  update public.contacts c set email_suppressed = h.hard
  from (
    select i.id, exists (select 1 from public.contact_suppressions s
                         where s.contact_id = i.id and s.reason in ('bounce', 'complaint', 'manual')) as hard
    from unnest(ids) as i(id)
  ) h
  where c.id = h.id and c.email_suppressed is distinct from h.hard;
  return null;
end
$$;

create trigger contact_suppressions_flag_insert after insert on public.contact_suppressions
  referencing new table as new_rows
  for each statement execute function public.contact_suppressions_flag();
create trigger contact_suppressions_flag_delete after delete on public.contact_suppressions
  referencing old table as old_rows
  for each statement execute function public.contact_suppressions_flag();
create trigger contact_suppressions_flag_update after update on public.contact_suppressions
  referencing old table as old_rows new table as new_rows
  for each statement execute function public.contact_suppressions_flag();

-- what exists already (before the counters' triggers exist, which count from the rows below)
update public.contacts c set email_suppressed = true
where exists (select 1 from public.contact_suppressions s
              where s.contact_id = c.id and s.reason in ('bounce', 'complaint', 'manual'));

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

create trigger contact_stats_insert after insert on public.contacts
  referencing new table as new_rows
  for each statement execute function public.contact_stats_after_write();
create trigger contact_stats_delete after delete on public.contacts
  referencing old table as old_rows
  for each statement execute function public.contact_stats_after_write();
create trigger contact_stats_update after update on public.contacts
  referencing old table as old_rows new table as new_rows
  for each statement execute function public.contact_stats_after_write();

-- Keeps form_daily_counts: stored submissions (and the verified ones), staged submissions
create or replace function public.form_stats_after_insert() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'form_submissions' then
    insert into public.form_daily_counts as f (workspace_id, form_id, day, shard, submissions, verified)
    select workspace_id, form_id, (created_at at time zone 'UTC')::date, pg_backend_pid() % 16,
           count(*), count(*) filter (where submission_type = 'verified_email')
    from new_rows group by 1, 2, 3 order by 1, 2, 3
    on conflict (workspace_id, form_id, day, shard) do update
      set submissions = f.submissions + excluded.submissions, verified = f.verified + excluded.verified;
  else
    insert into public.form_daily_counts as f (workspace_id, form_id, day, shard, staged)
    select workspace_id, form_id, (created_at at time zone 'UTC')::date, pg_backend_pid() % 16, count(*)
    from new_rows group by 1, 2, 3 order by 1, 2, 3
    on conflict (workspace_id, form_id, day, shard) do update set staged = f.staged + excluded.staged;
  end if;
  return null;
end
$$;

create trigger form_submissions_stats after insert on public.form_submissions
  referencing new table as new_rows
  for each statement execute function public.form_stats_after_insert();
create trigger pending_form_submissions_stats after insert on public.pending_form_submissions
  referencing new table as new_rows
  for each statement execute function public.form_stats_after_insert();

-- what exists already
insert into public.contact_daily_counts (workspace_id, day, source, n)
select workspace_id, (created_at at time zone 'UTC')::date, source, count(*) from public.contacts group by 1, 2, 3;
insert into public.contact_status_counts (workspace_id, status, n)
select workspace_id, public.contact_email_status(is_subscribed, unsubscribed_at, email_suppressed), count(*)
from public.contacts group by 1, 2;
insert into public.form_daily_counts (workspace_id, form_id, day, submissions, verified)
select workspace_id, form_id, (created_at at time zone 'UTC')::date, count(*),
       count(*) filter (where submission_type = 'verified_email')
from public.form_submissions group by 1, 2, 3;
insert into public.form_daily_counts as f (workspace_id, form_id, day, staged)
select workspace_id, form_id, (created_at at time zone 'UTC')::date, count(*)
from public.pending_form_submissions group by 1, 2, 3
on conflict (workspace_id, form_id, day, shard) do update set staged = f.staged + excluded.staged;
