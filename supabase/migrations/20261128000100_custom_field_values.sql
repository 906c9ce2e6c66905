-- Custom field values as typed rows (docs/decisions.md, "Custom fields"): an index of
-- contacts.custom_fields that list and segment filters read. contacts.custom_fields stays the
-- source of truth every writer (forms, imports, REST, merge, erasure) writes and the app reads; a
-- trigger rewrites a contact's rows whenever its object changes, so no writer changes. One row
-- per value, one per option of a multi select; the value sits in the column of its type, whose
-- b-tree the filter reads. Comparisons on uuid, text, double precision, date and boolean are leakproof, so
-- under a member's RLS the planner may still use these indexes (jsonb @> is not: the GIN index of
-- contacts.custom_fields went unused, docs/performance.md "Measured on 2026-11-27").

create table public.contact_field_values (
  workspace_id uuid not null,
  contact_id uuid not null,
  field_id uuid not null,
  -- 0, or the option's position (from 1) in a multi select's list
  ord smallint not null default 0,
  -- text, select and each option of a multi select
  value_text text,
  -- double precision, not numeric: numeric's comparisons are not leakproof, so under RLS they
  -- would filter rows instead of bounding the index scan. Values reach the API, forms and imports
  -- as JavaScript numbers (doubles), so the conversion is exact for them.
  value_num double precision,
  value_date date,
  value_bool boolean,
  -- one row per value: a contact's rows (the trigger's rewrite, a deleted contact, "this contact
  -- has a value" probes) are read by its leading columns
  primary key (workspace_id, contact_id, field_id, ord),
  constraint contact_field_values_one_value
    check (num_nonnulls(value_text, value_num, value_date, value_bool) = 1),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade,
  foreign key (workspace_id, field_id) references public.custom_fields (workspace_id, id) on delete cascade
);

-- A field's holders: is set / not set, and a deleted definition's rows
create index contact_field_values_field_idx on public.contact_field_values (workspace_id, field_id, contact_id);
-- One b-tree per value type, led by the field, ending with the contact: a filter's matches and
-- their count are read from the index alone (workspace_id, which the policy checks, included).
-- Text values over 2,000 bytes (a b-tree entry holds ~2,700) are left out: an equality on such a
-- value reads the field's rows instead (lib/contacts/custom-fields/filter-sql.ts).
create index contact_field_values_text_idx on public.contact_field_values
  (workspace_id, field_id, value_text, contact_id)
  where value_text is not null and octet_length(value_text) <= 2000;
create index contact_field_values_num_idx on public.contact_field_values
  (workspace_id, field_id, value_num, contact_id) where value_num is not null;
create index contact_field_values_date_idx on public.contact_field_values
  (workspace_id, field_id, value_date, contact_id) where value_date is not null;
create index contact_field_values_bool_idx on public.contact_field_values
  (workspace_id, field_id, value_bool, contact_id) where value_bool is not null;

-- A number value as a double: beyond its range (a direct write of 1e400) it is infinite or zero,
-- rather than an error that would refuse the contact's write.
create or replace function public.custom_field_number(v jsonb) returns double precision
language plpgsql immutable
set search_path = ''
as $$
declare
  x numeric := (v #>> '{}')::numeric;
begin
  return case when abs(x) >= 1e308 then sign(x)::double precision * 'Infinity'::double precision
              when abs(x) < 1e-307 then 0::double precision
              else x::double precision end;
end
$$;

-- The typed rows of one contact's object: keys the workspace does not define are skipped (the
-- value check of contacts_check_custom_fields refuses them from writers anyway). PL/pgSQL, not SQL:
-- its plan is kept for the session, where a SQL function with its own search_path is planned
-- again on every call (every row a trigger writes).
create or replace function public.contact_field_value_rows(ws uuid, contact uuid, vals jsonb)
returns table (workspace_id uuid, contact_id uuid, field_id uuid, ord smallint, value_text text,
               value_num double precision, value_date date, value_bool boolean)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select ws, contact, f.id, coalesce(m.n, 0)::smallint,
    case when f.field_type in ('text', 'select') then e.value #>> '{}'
         when f.field_type = 'multi_select' then m.option end,
    case when f.field_type = 'number' then public.custom_field_number(e.value) end,
    case when f.field_type = 'date' then (e.value #>> '{}')::date end,
    case when f.field_type = 'boolean' then (e.value #>> '{}')::boolean end
  from jsonb_each(vals) e
  join public.custom_fields f on f.workspace_id = ws and f.key = e.key
  left join lateral jsonb_array_elements_text(
    case when f.field_type = 'multi_select' and jsonb_typeof(e.value) = 'array' then e.value end)
    with ordinality m(option, n) on true
  where e.value <> 'null'::jsonb and (f.field_type <> 'multi_select' or m.option is not null);
end
$$;

-- Rewrites a contact's rows from its object. Security definer: the writer (a member, whose role
-- may not write this table) changed the object, the database keeps the index. A deleted contact's
-- rows go by the foreign key's cascade; a deleted definition's too (its values leave the objects
-- through custom_fields_after_delete, which comes back here with no row for the key).
create or replace function public.contacts_sync_field_values() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    delete from public.contact_field_values v where v.workspace_id = old.workspace_id and v.contact_id = old.id;
  end if;
  insert into public.contact_field_values (workspace_id, contact_id, field_id, ord, value_text, value_num, value_date, value_bool)
  select * from public.contact_field_value_rows(new.workspace_id, new.id, new.custom_fields);
  return null;
end
$$;
revoke execute on function public.custom_field_number(jsonb), public.contact_field_value_rows(uuid, uuid, jsonb),
  public.contacts_sync_field_values() from public, anon, authenticated;

-- docs/decisions.md, "Custom fields": the typed rows equal the contact's object, whoever writes
create trigger contacts_sync_field_values_insert after insert on public.contacts
  for each row when (new.custom_fields <> '{}'::jsonb)
  execute function public.contacts_sync_field_values();
create trigger contacts_sync_field_values_update after update on public.contacts
  for each row when (new.custom_fields is distinct from old.custom_fields)
  execute function public.contacts_sync_field_values();

-- The existing values
insert into public.contact_field_values (workspace_id, contact_id, field_id, ord, value_text, value_num, value_date, value_bool)
select r.* from public.contacts c
cross join lateral public.contact_field_value_rows(c.workspace_id, c.id, c.custom_fields) r
where c.custom_fields <> '{}'::jsonb;
analyze public.contact_field_values;

-- Members read their workspace's rows (the filters run as the member); nobody but the trigger
-- writes them, not even the service: a direct write would make the index lie about the objects.
alter table public.contact_field_values enable row level security;
revoke all on public.contact_field_values from anon, authenticated;
grant select on public.contact_field_values to authenticated;
grant select on public.contact_field_values to service_role;
-- SELECT(contact_field_values): workspace members (list and segment filters on custom fields)
create policy contact_field_values_select on public.contact_field_values for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
