-- Who wrote a row is the signed-in member, never a value the member sends (docs/decisions.md,
-- "The database is the boundary"). A member reaching these tables directly (PostgREST, their own
-- JWT) could otherwise POST a note, a task or a webhook endpoint in another member's name, PATCH
-- an existing row's author to someone else, or post a note without an author, which the timeline
-- shows as 'System' (spec 2.10). The app's own writes are unchanged: a member's row names the
-- member, and the system's (created_by null) go through the service door. (contacts.created_by is
-- contacts_guard_consent's, migration 20261128000500; its updated_by at insert is checked below.)
--
-- stamp_caller(column, kind), for writes as role authenticated only (the triggers' WHEN: the
-- service and the security-definer functions write as themselves):
--   author  the column is the caller or null at insert, and never changes after
--   signed  the same, and null at insert means the caller: a member writes no system row
--   editor  the caller or null at insert; an update keeps it or names the caller
-- Anything else is refused (42501), and the row is not written.
create function public.stamp_caller() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  column_name text := tg_argv[0];
  kind text := tg_argv[1];
  caller uuid;
  given uuid;
begin
  caller := (select auth.uid());
  given := (to_jsonb(new) ->> column_name)::uuid;
  if tg_op = 'INSERT' then
    if given is null and kind = 'signed' then
      return jsonb_populate_record(new, jsonb_build_object(column_name, caller));
    end if;
    if given is null or given = caller then
      return new;
    end if;
  elsif given is not distinct from (to_jsonb(old) ->> column_name)::uuid
     or (kind = 'editor' and given = caller) then
    return new;
  end if;
  raise exception '%.% is the signed-in member', tg_table_name, column_name
    using errcode = '42501';
end
$$;
revoke all on function public.stamp_caller() from public, anon, authenticated;

-- A member's new contact is last changed by the member. Checked in contacts_before_write itself, which
-- fills updated_by: a member's bulk insert (a dashboard import) pays no second trigger per row.
create or replace function public.contacts_before_write() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.email := lower(btrim(new.email));
  if tg_op = 'INSERT' then
    new.created_by := coalesce(new.created_by, (select auth.uid()));
    new.updated_by := coalesce(new.updated_by, new.created_by);
    if current_user = 'authenticated' and new.updated_by is distinct from (select auth.uid()) then
      raise exception 'contacts.updated_by is the signed-in member' using errcode = '42501';
    end if;
  elsif new.email_suppressed is distinct from old.email_suppressed
    -- (search_text is generated: not yet computed in a BEFORE trigger's new row)
    and to_jsonb(new) - array['email_suppressed', 'updated_at', 'updated_by', 'search_text']
      = to_jsonb(old) - array['email_suppressed', 'updated_at', 'updated_by', 'search_text'] then
    new.updated_by := old.updated_by;
    new.updated_at := old.updated_at;
  else
    new.updated_by := (select auth.uid());
    new.updated_at := now();
  end if;
  return new;
end
$$;

-- 'z' sorts these after each table's own BEFORE triggers, so they check the row as it will be stored
create trigger notes_z_created_by_caller before insert or update of created_by on public.notes
  for each row when (current_user = 'authenticated')
  execute function public.stamp_caller('created_by', 'signed');
create trigger tasks_z_created_by_caller before insert or update of created_by on public.tasks
  for each row when (current_user = 'authenticated')
  execute function public.stamp_caller('created_by', 'author');
create trigger webhook_endpoints_z_created_by_caller
  before insert or update of created_by on public.webhook_endpoints
  for each row when (current_user = 'authenticated')
  execute function public.stamp_caller('created_by', 'author');
create trigger import_mappings_z_updated_by_caller
  before insert or update of updated_by on public.import_mappings
  for each row when (current_user = 'authenticated')
  execute function public.stamp_caller('updated_by', 'editor');
create trigger workspace_invitations_z_invited_by_caller
  before insert or update of invited_by on public.workspace_invitations
  for each row when (current_user = 'authenticated')
  execute function public.stamp_caller('invited_by', 'editor');
