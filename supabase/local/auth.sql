-- Local stand-in for the parts of Supabase's auth layer the migrations rely on.
-- Applied by lib/db/migrate.ts before the migrations on plain Postgres and PGlite,
-- never on a Supabase project (detected by the presence of auth.users there).
-- Definitions follow Supabase's own: roles anon, authenticated and service_role
-- (BYPASSRLS), auth.users, and auth.uid()/auth.jwt()/auth.role() reading the
-- request.jwt.claims setting that withUser() sets per transaction.

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end
$$;

create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;
grant usage on schema public to anon, authenticated, service_role;

create table if not exists auth.users (
  id uuid primary key default gen_random_uuid(),
  email text unique,
  encrypted_password text,
  raw_user_meta_data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
grant select, insert, update, delete on auth.users to service_role;

-- Supabase's own column for "this address was proven by an emailed link". Accounts
-- that existed before the column are taken as confirmed (they were made before the rule).
do $$
begin
  if not exists (select 1 from information_schema.columns
                 where table_schema = 'auth' and table_name = 'users' and column_name = 'email_confirmed_at') then
    alter table auth.users add column email_confirmed_at timestamptz;
    update auth.users set email_confirmed_at = created_at;
  end if;
end
$$;
-- Local sessions carry this number; changing or resetting the password and "sign out
-- everywhere" raise it, and a session with another number is refused (local provider only;
-- Supabase Auth revokes its own sessions).
alter table auth.users add column if not exists session_version integer not null default 0;

create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

create or replace function auth.uid() returns uuid
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

grant execute on function auth.uid(), auth.jwt(), auth.role() to anon, authenticated, service_role;
