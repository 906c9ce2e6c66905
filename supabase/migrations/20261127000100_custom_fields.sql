-- Custom fields per workspace (docs/api.md "Custom fields"; docs/decisions.md, "Custom fields"):
-- owners and admins define fields (a snake_case key, a label, a type, options for selects,
-- required or not, personal data or not); each contact keeps its values in one jsonb object
-- keyed by the field's key. The database checks every value a writer changes against the
-- definitions of the contact's workspace, whoever writes (members through Supabase's REST API
-- included): a value of the wrong type, a select value not among the options, or a key the
-- workspace does not define is refused.

create table public.custom_fields (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  -- snake_case, starting with a letter; the name in the API, imports, forms and exports
  key text not null check (key ~ '^[a-z][a-z0-9_]{0,62}$'),
  label text not null check (length(btrim(label)) between 1 and 100),
  field_type text not null
    check (field_type in ('text', 'number', 'date', 'boolean', 'select', 'multi_select')),
  -- the choices of a select or multi select (at least one); empty for the other types
  options text[] not null default '{}'
    check (cardinality(options) <= 200 and array_position(options, null) is null),
  is_required boolean not null default false,
  -- personal data: redacted from audit summaries, listed in the privacy export
  is_personal boolean not null default false,
  -- the order of the fields in forms, on the contact page and in exports
  position integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint custom_fields_workspace_key_key unique (workspace_id, key),
  constraint custom_fields_workspace_id_id_key unique (workspace_id, id),
  constraint custom_fields_options_fit_type
    check ((field_type in ('select', 'multi_select')) = (cardinality(options) > 0))
);

-- A definition's key and type never change (stored values and API clients rely on both); its
-- options have no blanks, repeats or overlong entries; an option still held by a contact is not
-- removed (the values stay valid). Whoever writes, as the value check below.
create or replace function public.custom_fields_before_write() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  removed text;
begin
  if exists (select 1 from unnest(new.options) o where length(btrim(o)) not between 1 and 100)
     or cardinality(new.options) <> (select count(distinct o) from unnest(new.options) o) then
    raise exception using errcode = '23514', message = 'custom field options must be distinct, 1 to 100 characters';
  end if;
  if tg_op = 'UPDATE' then
    if new.key <> old.key or new.field_type <> old.field_type or new.workspace_id <> old.workspace_id then
      raise exception using errcode = '23514', message = 'a custom field''s key and type cannot change';
    end if;
    for removed in select o from unnest(old.options) o where not (o = any (new.options)) loop
      if exists (
        select 1 from public.contacts c
        where c.workspace_id = old.workspace_id and c.custom_fields <> '{}'::jsonb
          and c.custom_fields @> case when old.field_type = 'multi_select'
                                      then jsonb_build_object(old.key, jsonb_build_array(removed))
                                      else jsonb_build_object(old.key, removed) end
      ) then
        raise exception using errcode = '23514',
          message = format('custom field option %s is still used by contacts', removed);
      end if;
    end loop;
    new.updated_at := now();
  end if;
  return new;
end
$$;
-- docs/decisions.md, "Custom fields": key and type fixed, options clean, used options kept
create trigger custom_fields_before_write before insert or update on public.custom_fields
  for each row execute function public.custom_fields_before_write();

-- The values: one object per contact, {"<key>": value}. Absent key = no value.
alter table public.contacts add column custom_fields jsonb not null default '{}'::jsonb
  constraint contacts_custom_fields_object check (jsonb_typeof(custom_fields) = 'object');

-- Filters on a custom field (equality, contains-any, is-set) read this index; contacts without
-- values (most rows of most workspaces) are left out of it, so imports pay nothing for them.
create index contacts_custom_fields_idx on public.contacts using gin (custom_fields)
  where custom_fields <> '{}'::jsonb;

-- docs/api.md "Custom fields": every value a writer sets or changes is checked
-- against its workspace's definition. Null, '' and [] mean "no value" and are dropped.
-- Values left unchanged are not rechecked. Runs as the writer: a member sees only their own
-- workspace's definitions (RLS), so a key from another workspace is unknown.
create or replace function public.contacts_check_custom_fields() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  k text;
  v jsonb;
  def record;
  ok boolean;
begin
  if jsonb_typeof(new.custom_fields) is distinct from 'object' then
    raise exception using errcode = '23514', message = 'custom_fields must be an object';
  end if;
  new.custom_fields := coalesce(
    (select jsonb_object_agg(e.key, e.value) from jsonb_each(new.custom_fields) e
     where e.value not in ('null'::jsonb, '""'::jsonb, '[]'::jsonb)),
    '{}'::jsonb);
  for k, v in
    select e.key, e.value from jsonb_each(new.custom_fields) e
    where tg_op = 'INSERT' or (old.custom_fields -> e.key) is distinct from e.value
  loop
    select f.field_type, f.options into def
    from public.custom_fields f where f.workspace_id = new.workspace_id and f.key = k;
    if not found then
      raise exception using errcode = '23514', message = format('custom field %s is not defined', k),
        detail = k;
    end if;
    ok := case def.field_type
      when 'text' then jsonb_typeof(v) = 'string' and length(v #>> '{}') <= 10000
      when 'number' then jsonb_typeof(v) = 'number'
      when 'boolean' then jsonb_typeof(v) = 'boolean'
      when 'select' then jsonb_typeof(v) = 'string' and (v #>> '{}') = any (def.options)
      when 'multi_select' then jsonb_typeof(v) = 'array'
        and not exists (select 1 from jsonb_array_elements(v) x
                        where jsonb_typeof(x) <> 'string' or not ((x #>> '{}') = any (def.options)))
        and jsonb_array_length(v) = (select count(distinct x) from jsonb_array_elements(v) x)
      when 'date' then jsonb_typeof(v) = 'string' and (v #>> '{}') ~ '^\d{4}-\d{2}-\d{2}$'
      else false
    end;
    if ok and def.field_type = 'date' then
      begin
        ok := to_char((v #>> '{}')::date, 'YYYY-MM-DD') = (v #>> '{}');
      exception when others then
        ok := false;
      end;
    end if;
    if not ok then
      raise exception using errcode = '23514',
        message = format('custom field %s: not a valid %s value', k, def.field_type), detail = k;
    end if;
  end loop;
  return new;
end
$$;
-- docs/api.md "Custom fields": the type of every value is enforced by the database
create trigger contacts_check_custom_fields_insert before insert on public.contacts
  for each row when (new.custom_fields <> '{}'::jsonb)
  execute function public.contacts_check_custom_fields();
create trigger contacts_check_custom_fields_update before update of custom_fields on public.contacts
  for each row when (new.custom_fields is distinct from old.custom_fields)
  execute function public.contacts_check_custom_fields();

-- A deleted field's values go with it (not when the whole workspace is being deleted: its
-- contacts go too).
create or replace function public.custom_fields_after_delete() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if exists (select 1 from public.workspaces w where w.id = old.workspace_id) then
    update public.contacts c set custom_fields = c.custom_fields - old.key
    where c.workspace_id = old.workspace_id and c.custom_fields <> '{}'::jsonb and c.custom_fields ? old.key;
  end if;
  return null;
end
$$;
-- docs/decisions.md, "Custom fields": deleting a definition removes its values
create trigger custom_fields_after_delete after delete on public.custom_fields
  for each row execute function public.custom_fields_after_delete();

create index custom_fields_workspace_position_idx on public.custom_fields (workspace_id, position, key);

alter table public.custom_fields enable row level security;
revoke all on public.custom_fields from anon, authenticated;
grant select, insert, delete on public.custom_fields to authenticated;
-- key and type are fixed once defined (the trigger above refuses it for everyone)
grant update (label, options, is_required, is_personal, position) on public.custom_fields to authenticated;
grant all on public.custom_fields to service_role;
-- SELECT(custom_fields): workspace members (the contact form, list and filters show the fields)
create policy custom_fields_select on public.custom_fields for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- INSERT(custom_fields): Admin+ define fields (settings)
create policy custom_fields_insert on public.custom_fields for insert to authenticated
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- UPDATE(custom_fields): Admin+ edit label, options, required and personal
create policy custom_fields_update on public.custom_fields for update to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])))
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- DELETE(custom_fields): Admin+
create policy custom_fields_delete on public.custom_fields for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
