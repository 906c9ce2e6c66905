-- Custom field values kept per statement (docs/decisions.md, "Custom fields"): the row-level
-- triggers of 20261128000100 deleted and rewrote each changed contact's typed rows one contact at
-- a time, so a bulk write (an import, a segment-wide edit, a definition's deletion) paid a
-- delete and an insert per contact (docs/performance.md, "Measured on 2026-11-28"). These
-- statement-level triggers read the statement's transition tables and do one delete and one
-- insert for every contact whose object changed. Postgres allows no column list (UPDATE OF) and
-- no WHEN clause on a trigger with transition tables, so "only a changed object" is the function's
-- join; and one trigger per event, so the insert and the update keep their own trigger, under the
-- former names.

drop trigger contacts_sync_field_values_insert on public.contacts;
drop trigger contacts_sync_field_values_update on public.contacts;

-- Security definer as before: the writer (a member, whose role may not write this table) changed
-- the objects, the database keeps the index. A contact counts as changed unless the statement left
-- a row with its workspace, id and object (an update that moved the id rewrites both ids' rows).
create or replace function public.contacts_sync_field_values() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    delete from public.contact_field_values v
    using old_contacts o
    where v.workspace_id = o.workspace_id and v.contact_id = o.id
      and not exists (select 1 from new_contacts n
                      where n.id = o.id and n.workspace_id = o.workspace_id
                        and n.custom_fields is not distinct from o.custom_fields);
    insert into public.contact_field_values (workspace_id, contact_id, field_id, ord, value_text, value_num, value_date, value_bool)
    select r.* from new_contacts n
    cross join lateral public.contact_field_value_rows(n.workspace_id, n.id, n.custom_fields) r
    where n.custom_fields <> '{}'::jsonb
      and not exists (select 1 from old_contacts o
                      where o.id = n.id and o.workspace_id = n.workspace_id
                        and o.custom_fields is not distinct from n.custom_fields);
  else
    insert into public.contact_field_values (workspace_id, contact_id, field_id, ord, value_text, value_num, value_date, value_bool)
    select r.* from new_contacts n
    cross join lateral public.contact_field_value_rows(n.workspace_id, n.id, n.custom_fields) r
    where n.custom_fields <> '{}'::jsonb;
  end if;
  return null;
end
$$;
revoke execute on function public.contacts_sync_field_values() from public, anon, authenticated;

-- docs/decisions.md, "Custom fields": the typed rows equal the contact's object, whoever writes
create trigger contacts_sync_field_values_insert after insert on public.contacts
  referencing new table as new_contacts
  for each statement execute function public.contacts_sync_field_values();
create trigger contacts_sync_field_values_update after update on public.contacts
  referencing old table as old_contacts new table as new_contacts
  for each statement execute function public.contacts_sync_field_values();
