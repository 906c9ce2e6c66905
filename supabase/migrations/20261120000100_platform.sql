-- Platform: workspaces, members, profiles, invitations, account links, public API keys, and
-- the helpers every RLS policy uses (spec 5.4). Row-level security and grants for these
-- tables: *_rls.sql.

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

-- Accounts: sign-up proves email ownership, password reset by email link
-- (docs/decisions.md, "Sign-up by emailed link"). account_tokens holds the single-use, expiring links of
-- those two flows. Only the SHA-256 hex digest of a link's token is stored (token_hash), so a leaked table
-- yields no usable link. A 'sign_up' row carries the pending account (password hash, names, workspace name)
-- in `data`: the account itself is only created when the link is opened, so nobody can hold an account for an
-- address they cannot read mail at (no pre-claimed accounts).
create table public.account_tokens (
  id uuid primary key default gen_random_uuid(),
  purpose text not null check (purpose in ('sign_up', 'reset_password')),
  email text not null check (email = lower(btrim(email))),
  user_id uuid references auth.users (id) on delete cascade,
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  data jsonb not null default '{}'::jsonb,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
-- "the other open links of this address" (a confirmed sign-up or a reset spends them all)
create index account_tokens_open_idx on public.account_tokens (email, purpose) where used_at is null;
create index account_tokens_user_idx on public.account_tokens (user_id) where user_id is not null;
-- the sweep of links a day past their expiry (lib/auth/sweep-account-tokens.ts)
create index account_tokens_expires_idx on public.account_tokens (expires_at);

-- Members join a workspace only by accepting an invitation
-- (docs/decisions.md, "Invitations instead of direct adds") sent to their verified email address; nobody is
-- put into a workspace without consent (no member inserts into workspace_members: *_rls.sql). The invitation
-- link's token is kept as its SHA-256 hex digest (token_hash); it is single-use (accepted_at), expiring
-- (expires_at) and revocable (revoked_at).
create table public.workspace_invitations (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  email text not null check (email = lower(btrim(email)) and length(email) between 3 and 254),
  role text not null default 'member' check (role in ('owner', 'admin', 'member')),
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  invited_by uuid references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  sent_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_by uuid references public.user_profiles (id) on delete set null,
  revoked_at timestamptz
);
-- one open invitation per address and workspace: inviting again resends it
create unique index workspace_invitations_open_key on public.workspace_invitations (workspace_id, email)
  where accepted_at is null and revoked_at is null;
create index workspace_invitations_workspace_idx on public.workspace_invitations (workspace_id, sent_at desc);
create index workspace_invitations_invited_by_idx on public.workspace_invitations (invited_by)
  where invited_by is not null;
create index workspace_invitations_accepted_by_idx on public.workspace_invitations (accepted_by)
  where accepted_by is not null;

-- The audit log (docs/decisions.md, "Audit log"): a row per action a member takes that changes data or
-- access, written by the adapter (lib/adapters/member-action.ts, member-route.ts) in the same
-- transaction as the change, so a rolled-back change leaves no row and a committed one always
-- has its row. Append-only: no role may update or delete a row; rows go only with their
-- workspace. Summaries name what changed (ids, statuses, names of forms and events, which
-- contact fields) but never a contact's personal data, so an erasure (spec: privacy) never
-- needs to rewrite the log.

create table public.audit_log (
  id bigint generated always as identity primary key,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  -- the member (auth.users id, no foreign key: the log outlives an account), and their email then
  actor_id uuid,
  actor_email text,
  -- <target>.<verb>, e.g. contact.updated, api_key.revoked (lib/audit/audit-actions.ts)
  action text not null check (action ~ '^[a-z_]+\.[a-z_]+$'),
  target_type text,
  target_id text,
  before jsonb,
  after jsonb,
  ip inet,
  created_at timestamptz not null default now()
);
create index audit_log_workspace_created_idx on public.audit_log (workspace_id, created_at desc, id desc);
create index audit_log_workspace_action_idx on public.audit_log (workspace_id, action, created_at desc);
create index audit_log_workspace_actor_idx on public.audit_log (workspace_id, actor_id, created_at desc);

-- Append-only, for every role including the table owner: an UPDATE or DELETE raises, except the
-- cascade of a deleted workspace (its parent row is already gone when the cascade runs).
create or replace function public.audit_log_append_only() returns trigger
language plpgsql set search_path = '' as $$
begin
  if tg_op = 'DELETE' and not exists (select 1 from public.workspaces w where w.id = old.workspace_id) then
    return old;
  end if;
  raise exception 'audit_log is append-only' using errcode = 'insufficient_privilege';
end;
$$;
create trigger audit_log_append_only before update or delete on public.audit_log
  for each row execute function public.audit_log_append_only();

create or replace function public.audit_log_no_truncate() returns trigger
language plpgsql set search_path = '' as $$
begin
  raise exception 'audit_log is append-only' using errcode = 'insufficient_privilege';
end;
$$;
create trigger audit_log_no_truncate before truncate on public.audit_log
  for each statement execute function public.audit_log_no_truncate();
