-- Lead-capture forms (spec 2.1-2.3), their daily activity for the home dashboard and
-- the submission rate limit (spec 4.2.1).
-- Row-level security and grants: *_rls.sql.

create table public.forms (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 200),
  allowed_domains text[] not null default '{}',
  -- lowercase hex SHA-256 of the raw key; the raw key is shown once, when generated
  api_key text check (api_key is null or api_key ~ '^[0-9a-f]{64}$'),
  success_redirect_url text,
  captcha_required boolean not null default false,
  require_verification boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint forms_workspace_id_id_key unique (workspace_id, id)
);
-- forms.updated_at kept by the database
create trigger forms_updated_at before update on public.forms
  for each row execute function public.set_updated_at();

create table public.form_submissions (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  form_id uuid not null,
  contact_id uuid,
  payload json not null,
  ip_address inet,
  submission_type text not null default 'direct'
    check (submission_type in ('direct', 'verified_email', 'api_key')),
  created_at timestamptz not null default now(),
  -- the form and the contact belong to the submission's workspace (spec 5.4)
  foreign key (workspace_id, form_id) references public.forms (workspace_id, id) on delete cascade,
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade
);
create index form_submissions_form_created_idx on public.form_submissions (form_id, created_at desc);
create index form_submissions_contact_idx on public.form_submissions (contact_id, workspace_id);
create index form_submissions_workspace_form_idx on public.form_submissions (workspace_id, form_id);

create table public.pending_form_submissions (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  form_id uuid not null,
  email text not null,
  payload json not null,
  token text not null unique,
  ip_address inet,
  expires_at timestamptz not null default (now() + interval '24 hours'),
  created_at timestamptz not null default now(),
  foreign key (workspace_id, form_id) references public.forms (workspace_id, id) on delete cascade
);
create index pending_form_submissions_form_idx on public.pending_form_submissions (form_id, workspace_id);
create index pending_form_submissions_workspace_idx on public.pending_form_submissions (workspace_id);
create index pending_form_submissions_expires_idx on public.pending_form_submissions (expires_at);
-- A double opt-in submission replaces the staged one of the same form and email (spec 4.2.2 A:
-- an older link must never apply older details). That delete found the rows through the
-- (form_id, workspace_id) index and then read every staged row of the form: its cost grew with
-- the form's pending submissions (EXPLAIN ANALYZE with 4,000 staged rows of one form: 0.85 ms
-- for a sequential scan, 0.11 ms through this index).
create index pending_form_submissions_form_email_idx on public.pending_form_submissions (form_id, email);

-- The home dashboard's form activity per day and form (docs/decisions.md, "Home dashboard"), kept as
-- contact_daily_counts is (*_contacts.sql): submissions stored, submissions staged for verification
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

-- Home dashboard: submissions stored, and the verified ones, count on their day
create trigger form_submissions_stats after insert on public.form_submissions
  referencing new table as new_rows
  for each statement execute function public.form_stats_after_insert();
-- Home dashboard: submissions staged for verification count on their day
create trigger pending_form_submissions_stats after insert on public.pending_form_submissions
  referencing new table as new_rows
  for each statement execute function public.form_stats_after_insert();

-- Spec 4.2.1: sliding-window rate limit kept in a table, evaluated by a function.
-- One row per accepted hit; a key is e.g. 'form:<form_id>:<ip>'.
create table public.rate_limit_hits (
  key text not null,
  hit_at timestamptz not null default clock_timestamp()
);
create index rate_limit_hits_key_time_idx on public.rate_limit_hits (key, hit_at);
-- for sweep_rate_limit_hits (below)
create index rate_limit_hits_hit_at_idx on public.rate_limit_hits (hit_at);

-- Returns (allowed, retry_after_seconds). Hits of the same key are serialised by an
-- advisory lock so that concurrent requests cannot all slip under the limit.
create or replace function public.check_rate_limit(
  p_key text,
  p_limit integer default 5,
  p_window_seconds integer default 60
) returns table (allowed boolean, retry_after_seconds integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_now timestamptz := clock_timestamp();
  v_window interval := make_interval(secs => p_window_seconds);
  v_count integer;
  v_oldest timestamptz;
begin
  perform pg_advisory_xact_lock(hashtextextended(p_key, 0));
  delete from public.rate_limit_hits h where h.key = p_key and h.hit_at <= v_now - v_window;
  select count(*), min(h.hit_at) into v_count, v_oldest
    from public.rate_limit_hits h where h.key = p_key;
  if v_count >= p_limit then
    return query select false, greatest(1, ceil(extract(epoch from (v_oldest + v_window - v_now)))::integer);
    return;
  end if;
  insert into public.rate_limit_hits (key, hit_at) values (p_key, v_now);
  return query select true, 0;
end
$$;
revoke execute on function public.check_rate_limit(text, integer, integer) from public, anon, authenticated;
grant execute on function public.check_rate_limit(text, integer, integer) to service_role;

-- Spec 4.2.1 keeps the rate limiter's state in a table. check_rate_limit() deletes a key's
-- expired hits only when that key is seen again, so the hits of keys never seen again (one
-- visit from an address) would pile up for ever. This sweep removes hits older than an hour
-- (longer than any window in use) in bounded batches; the form endpoint runs it now and then.
-- The system alone maintains the limiter table (service_role only).
create or replace function public.sweep_rate_limit_hits()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_deleted integer;
begin
  delete from public.rate_limit_hits h
  where h.ctid = any (array(
    select old.ctid from public.rate_limit_hits old
    where old.hit_at < clock_timestamp() - interval '1 hour'
    limit 10000));
  get diagnostics v_deleted = row_count;
  return v_deleted;
end
$$;
revoke execute on function public.sweep_rate_limit_hits() from public, anon, authenticated;
grant execute on function public.sweep_rate_limit_hits() to service_role;
