-- Where a table's member policies all decide by membership through user_workspace_ids(), which leaves
-- out the workspaces the token lacks the second factor for (…_second_factor_in_membership_checks.sql),
-- the restrictive <table>_second_factor policy says the same thing twice, and as a second security-barrier
-- qual it cost the contacts list 2-4× at 1M contacts (docs/performance.md, "The second factor at the
-- database"). It is dropped there and kept on every other workspace table (docs/decisions.md, "The second
-- factor holds at the database").
do $$
declare
  t record;
begin
  for t in
    select p.tablename
    from pg_policies p
    where p.schemaname = 'public' and p.policyname = p.tablename || '_second_factor'
      and not exists (
        select 1 from pg_policies o
        where o.schemaname = 'public' and o.tablename = p.tablename and o.permissive = 'PERMISSIVE'
          and 'authenticated' = any (o.roles)
          and (coalesce(o.qual, '') !~ '^\(workspace_id IN \( SELECT (public\.)?user_workspace_ids\(\) AS user_workspace_ids\)\)$'
               or coalesce(o.with_check, o.qual) !~ '^\(workspace_id IN \( SELECT (public\.)?user_workspace_ids\(\) AS user_workspace_ids\)\)$'))
      and exists (
        select 1 from pg_policies o
        where o.schemaname = 'public' and o.tablename = p.tablename and o.permissive = 'PERMISSIVE')
  loop
    execute format('drop policy %I on public.%I', t.tablename || '_second_factor', t.tablename);
  end loop;
end $$;
