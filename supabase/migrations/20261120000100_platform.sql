-- Platform: workspaces, members, profiles, public API keys, and the helpers every RLS
-- policy uses (spec 5.4). Row-level security and grants for these tables: *_rls.sql.

-- updated_at is maintained by the database, never by callers.
create or replace function public.set_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

-- Spec 2.10: workspaces (fields beyond those named are not shown).
create table public.workspaces (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(btrim(name)) between 1 and 200),
  tracking_url text,
  -- spec 4.8: the subscribe footer on transactional email to marketing-blocked contacts
  subscribe_footer_enabled boolean not null default true,
  subscribe_footer_message text not null default 'You are not currently subscribed to our emails.',
  subscribe_footer_link_text text not null default 'Subscribe to updates',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- workspaces.updated_at kept by the database (spec 2.10)
create trigger workspaces_updated_at before update on public.workspaces
  for each row execute function public.set_updated_at();

-- Spec 2.10: user_profiles; the viewer's timezone is the one named field.
create table public.user_profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email text,
  first_name text,
  last_name text,
  timezone text not null default 'UTC',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- user_profiles.updated_at kept by the database (spec 2.10)
create trigger user_profiles_updated_at before update on public.user_profiles
  for each row execute function public.set_updated_at();

-- Spec 5.4: roles named are owner, admin, member.
create table public.workspace_members (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  user_id uuid not null references public.user_profiles (id) on delete cascade,
  role text not null default 'member' check (role in ('owner', 'admin', 'member')),
  created_at timestamptz not null default now(),
  primary key (workspace_id, user_id)
);
create index workspace_members_user_id_idx on public.workspace_members (user_id);

-- The caller's workspaces, optionally limited to some roles. Used by every policy
-- as `workspace_id in (select public.user_workspace_ids())`, which Postgres
-- evaluates once per statement (an initPlan) rather than once per row.
-- security definer: reading workspace_members from inside its own policy would recurse.
create or replace function public.user_workspace_ids(roles text[] default null) returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select m.workspace_id
  from public.workspace_members m
  where m.user_id = (select auth.uid())
    and (roles is null or m.role = any (roles))
$$;

create or replace function public.is_workspace_member(ws uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.workspace_members m
    where m.workspace_id = ws and m.user_id = (select auth.uid())
  )
$$;

create or replace function public.has_workspace_role(ws uuid, roles text[]) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.workspace_members m
    where m.workspace_id = ws and m.user_id = (select auth.uid()) and m.role = any (roles)
  )
$$;

-- A workspace always keeps at least one owner: the last owner can be neither
-- removed nor demoted (beyond the spec; spec 5.4 names the roles).
create or replace function public.keep_one_owner() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.role = 'owner'
     and (tg_op = 'DELETE' or new.role <> 'owner')
     and exists (select 1 from public.workspaces w where w.id = old.workspace_id)
     and not exists (
       select 1 from public.workspace_members m
       where m.workspace_id = old.workspace_id and m.role = 'owner' and m.user_id <> old.user_id
     )
  then
    raise exception 'A workspace must keep at least one owner.' using errcode = 'P0001';
  end if;
  return coalesce(new, old);
end
$$;
-- Beyond the spec (spec 5.4 roles): a workspace keeps at least one owner
create trigger workspace_members_keep_one_owner
  before update or delete on public.workspace_members
  for each row execute function public.keep_one_owner();

-- Fills workspace_id on dependent rows from their contact, so a row written with only
-- the spec's columns (contact_id, tag_id, ...) is valid and still tenant-scoped. It only
-- fills an empty workspace_id; that the row's workspace matches its contact's (and its tag's,
-- form's, ...) is enforced by composite foreign keys (workspace_id, x_id).
create or replace function public.fill_workspace_from_contact() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.workspace_id is null and new.contact_id is not null then
    select c.workspace_id into new.workspace_id from public.contacts c where c.id = new.contact_id;
  end if;
  return new;
end
$$;

-- Beyond the spec (spec 5.4 roles): a signed-in user may create (and so own) more workspaces
-- than the one made at sign-up. Members cannot insert into workspaces (RLS grants no INSERT),
-- and could not add themselves as owner of a workspace they do not yet belong to, so this
-- function does both in one step, for the caller (auth.uid()) only.
create or replace function public.create_workspace(p_name text) returns uuid
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
  ws uuid;
begin
  if uid is null then
    raise exception 'Sign in to create a workspace.' using errcode = '42501';
  end if;
  -- every account has a profile from sign-up; make sure of it (membership references it)
  insert into public.user_profiles (id, email)
  values (uid, (select auth.jwt()) ->> 'email')
  on conflict (id) do nothing;
  insert into public.workspaces (name) values (btrim(p_name)) returning id into ws;
  insert into public.workspace_members (workspace_id, user_id, role) values (ws, uid, 'owner');
  return ws;
end
$$;

revoke execute on function public.create_workspace(text) from public, anon;
grant execute on function public.create_workspace(text) to authenticated, service_role;

-- Beyond the spec (spec 5.4: Admin+ manage members): owners and admins add a member by
-- email. Members cannot read auth.users, so this answers the one question the add-member
-- flow needs: the id of the account with that email (case-insensitive). It answers only
-- callers who are Admin+ of the given workspace, and only for accounts that have a profile
-- (the membership references it).
create or replace function public.find_user_id_by_email(ws uuid, p_email text) returns uuid
language sql stable security definer
set search_path = ''
as $$
  select p.id
  from auth.users u
  join public.user_profiles p on p.id = u.id
  where lower(u.email) = lower(btrim(p_email))
    and public.has_workspace_role(ws, array['owner', 'admin'])
  order by u.created_at
  limit 1
$$;

revoke execute on function public.find_user_id_by_email(uuid, text) from public, anon;
grant execute on function public.find_user_id_by_email(uuid, text) to authenticated, service_role;

-- Spec 5.2: keys for the public events API, stored as the lowercase hex SHA-256 of the key.
create table public.api_keys (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null,
  key_hash text not null unique check (key_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_keys_workspace_idx on public.api_keys (workspace_id);
