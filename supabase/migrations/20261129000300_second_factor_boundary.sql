-- The second factor holds at the database (docs/decisions.md, "The second factor holds at the
-- database"). A workspace that requires two-factor (workspace_security.require_two_factor) was
-- enforced by the app alone (lib/auth/context.ts): a member's aal1 JWT reached every table of that
-- workspace directly through PostgREST. Now every workspace table carries a RESTRICTIVE policy
-- `<table>_second_factor`, ANDed with the permissive ones: an aal1 (or aal-less) token sees and
-- writes nothing of a workspace that requires two-factor, and keeps everything of its other
-- workspaces. service_role bypasses RLS, as before.

-- ---------------------------------------------------------------- the helper
-- The caller's workspaces that require two-factor while their token is not aal2 (empty at aal2).
-- security definer: members hold no grant on workspace_security. Policies call it as
-- `(select public.aal_blocked_workspaces())`, evaluated once per statement (an initPlan).
create or replace function public.aal_blocked_workspaces() returns uuid[]
language sql stable security definer
set search_path = ''
as $$
  select coalesce(array_agg(s.workspace_id), '{}'::uuid[])
  from public.workspace_security s
  where s.require_two_factor
    and coalesce((select auth.jwt()) ->> 'aal', 'aal1') <> 'aal2'
    and s.workspace_id in (select public.user_workspace_ids())
$$;
revoke execute on function public.aal_blocked_workspaces() from public, anon;
-- used by the policies (as user_workspace_ids and is_workspace_member)
grant execute on function public.aal_blocked_workspaces() to authenticated, service_role;

-- ---------------------------------------------------------------- the policies
-- Every RLS-enabled table of schema public with a workspace_id column, and workspaces itself (its
-- id). A table added later needs its own: tests/integration/security-second-factor.test.ts lists
-- the catalog and fails on a workspace table without one.
do $$
declare
  t record;
begin
  for t in
    select c.relname, case when c.relname = 'workspaces' then 'id' else 'workspace_id' end as col
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relrowsecurity
      and (c.relname = 'workspaces' or exists (
        select 1 from pg_catalog.pg_attribute a
        where a.attrelid = c.oid and a.attname = 'workspace_id' and not a.attisdropped))
    order by c.relname
  loop
    execute format(
      'create policy %I on public.%I as restrictive for all to authenticated '
      'using (%I <> all ((select public.aal_blocked_workspaces())::uuid[])) '
      'with check (%I <> all ((select public.aal_blocked_workspaces())::uuid[]))',
      t.relname || '_second_factor', t.relname, t.col, t.col);
  end loop;
end
$$;
