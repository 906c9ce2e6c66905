-- Issue 2: owners and admins add a member by email. Members cannot read auth.users, so
-- this answers the one question the add-member flow needs: the id of the account with
-- that email (case-insensitive). It answers only callers who are Admin+ of the given
-- workspace, and only for accounts that have a profile (the membership references it).

-- find_user_id_by_email(ws, email): Admin+ of ws look up an account to add as a member
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
