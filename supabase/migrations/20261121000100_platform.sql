-- Platform: workspaces, members, profiles, and the helpers every RLS policy uses.

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
create trigger workspaces_updated_at before update on public.workspaces
  for each row execute function public.set_updated_at();

create table public.user_profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email text,
  first_name text,
  last_name text,
  timezone text not null default 'UTC',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger user_profiles_updated_at before update on public.user_profiles
  for each row execute function public.set_updated_at();

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
-- removed nor demoted (issue 2: "the last owner cannot leave").
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
