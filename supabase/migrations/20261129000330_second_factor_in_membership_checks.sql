-- The second factor holds beneath the policies too (docs/decisions.md, "The second factor holds at the
-- database"). The restrictive <table>_second_factor policies (…_second_factor_boundary.sql) keep an aal1
-- token out of the tables of a workspace that requires two-factor, but the security definer functions a
-- member calls through PostgREST's /rpc bypass RLS and decide membership by the helpers below:
-- search_contacts answered that workspace's contacts, replay_webhook_delivery and
-- send_webhook_test_event queued deliveries in it, erased_address_hash answered its digests; and the
-- app's service path for members (asServiceForMember) checks is_workspace_member. Now the membership
-- helpers leave out the workspaces the token lacks the second factor for, so every function that
-- decides by them holds the same line; the policies keep it on the tables whatever their permissive
-- policies say.

-- The caller's workspaces that require two-factor while their token is not aal2, read from the
-- memberships directly (user_workspace_ids now calls this: it must not call user_workspace_ids).
-- Same signature, so the policies that call it are unchanged.
create or replace function public.aal_blocked_workspaces() returns uuid[]
language sql stable security definer
set search_path = ''
as $$
  select coalesce(array_agg(m.workspace_id order by m.workspace_id), '{}'::uuid[])
  from public.workspace_members m
  join public.workspace_security s on s.workspace_id = m.workspace_id and s.require_two_factor
  where m.user_id = (select auth.uid())
    and coalesce((select auth.jwt()) ->> 'aal', 'aal1') <> 'aal2'
$$;

-- The caller's workspaces (optionally some roles), as before, less those the token lacks the second
-- factor for. Still an initPlan in every policy: the array is read once per statement.
create or replace function public.user_workspace_ids(roles text[] default null) returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select m.workspace_id
  from public.workspace_members m
  where m.user_id = (select auth.uid())
    and (roles is null or m.role = any (roles))
    and m.workspace_id <> all ((select public.aal_blocked_workspaces())::uuid[])
$$;

create or replace function public.is_workspace_member(ws uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.workspace_members m
    where m.workspace_id = ws and m.user_id = (select auth.uid())
      and ws <> all ((select public.aal_blocked_workspaces())::uuid[])
  )
$$;

create or replace function public.has_workspace_role(ws uuid, roles text[]) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.workspace_members m
    where m.workspace_id = ws and m.user_id = (select auth.uid()) and m.role = any (roles)
      and ws <> all ((select public.aal_blocked_workspaces())::uuid[])
  )
$$;
