-- Spec 4.15 getContacts `search`, under row-level security.
-- LIKE is not a leakproof operator, so on a table with RLS Postgres evaluates it only
-- after the policies, row by row: the trigram index contacts_search_trgm_idx is never used
-- and a search over 1,000,000 contacts reads the whole table. This function runs the
-- search as its owner (with the index) and answers only for a workspace the caller
-- belongs to, or for the service role: the same rows the contacts policy shows. It
-- returns the columns the list filters and sorts on, so getContacts reads full rows for
-- one page only (under the policies).

-- SELECT(contacts) by search: members of the workspace (as contacts_members_all)
create or replace function public.search_contacts(ws uuid, patterns text[])
returns table (id uuid, workspace_id uuid, source text, created_at timestamptz, first_name text, last_name text)
language plpgsql stable security definer
set search_path = ''
rows 1000
as $$
begin
  if patterns is null or cardinality(patterns) = 0 then
    return;
  end if;
  if not (ws in (select public.user_workspace_ids()) or current_setting('role', true) = 'service_role') then
    return;
  end if;
  -- dynamic, so that each search is planned with its own pattern (the index needs a constant)
  return query execute
    'select c.id, c.workspace_id, c.source, c.created_at, c.first_name, c.last_name
     from public.contacts c
     where c.workspace_id = $1 and c.search_text like $2 and c.search_text like all ($3)'
    using ws, patterns[1], patterns;
end
$$;

revoke execute on function public.search_contacts(uuid, text[]) from public, anon;
grant execute on function public.search_contacts(uuid, text[]) to authenticated, service_role;
