-- Issue 2: a signed-in user may create (and so own) more workspaces than the one made at
-- sign-up. Members cannot insert into workspaces (RLS grants no INSERT), and could not
-- add themselves as owner of a workspace they do not yet belong to, so this function
-- does both in one step, for the caller (auth.uid()) only.

-- create_workspace(name): the caller becomes the new workspace's owner (issue 2, "a user may own several")
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
