-- Issue 13 (accounts, attack 1): members join a workspace only by accepting an invitation
-- sent to their verified email address; nobody is put into a workspace without consent.
-- The invitation link's token is kept as its SHA-256 hex digest (token_hash); it is
-- single-use (accepted_at), expiring (expires_at) and revocable (revoked_at).
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

alter table public.workspace_invitations enable row level security;
revoke all on public.workspace_invitations from anon, authenticated;
grant select, insert, update on public.workspace_invitations to authenticated;
grant all on public.workspace_invitations to service_role;

-- SELECT(workspace_invitations): Admin+ of the workspace (the members page lists them)
create policy workspace_invitations_select on public.workspace_invitations for select to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- INSERT(workspace_invitations): Admin+ invite, as themselves; only owners invite owners
create policy workspace_invitations_insert on public.workspace_invitations for insert to authenticated
  with check (
    workspace_id in (select public.user_workspace_ids(array['owner', 'admin']))
    and (role <> 'owner' or workspace_id in (select public.user_workspace_ids(array['owner'])))
    and invited_by = (select auth.uid())
    and accepted_at is null and accepted_by is null
  );
-- UPDATE(workspace_invitations): Admin+ resend or revoke an open invitation (owner
-- invitations: owners only); accepting is the system's, never a member's, write
create policy workspace_invitations_update on public.workspace_invitations for update to authenticated
  using (
    workspace_id in (select public.user_workspace_ids(array['owner', 'admin']))
    and (role <> 'owner' or workspace_id in (select public.user_workspace_ids(array['owner'])))
    and accepted_at is null
  )
  with check (
    workspace_id in (select public.user_workspace_ids(array['owner', 'admin']))
    and (role <> 'owner' or workspace_id in (select public.user_workspace_ids(array['owner'])))
    and accepted_at is null and accepted_by is null
  );

-- Members no longer insert memberships directly (not even Admin+ through Supabase's REST
-- API): a membership row is written only by the system when the invited person accepts,
-- and by create_workspace() for the caller's own new workspace.
drop policy workspace_members_insert on public.workspace_members;
revoke insert on public.workspace_members from authenticated;

-- find_user_id_by_email answered any Admin+ (anyone can own a workspace) whether an address
-- has an account: an enumeration oracle that invitations no longer need.
drop function public.find_user_id_by_email(uuid, text);
