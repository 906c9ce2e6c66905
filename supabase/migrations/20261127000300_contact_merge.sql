-- Merging two contacts (docs/decisions.md, "Merging contacts"): B's dependent records of spec 2.4.2
-- move to A, B is deleted, and the member's choices are written to A, in one transaction.

-- The consent ledger stays append-only (spec 3.3, migration …_consent_email.sql), with one
-- exception: the merge re-points B's entries to A, so A keeps both histories. The merge names
-- the move it makes in a transaction-local setting ('<from id>><to id>') before the update;
-- any other update, or one that changes more than contact_id, is refused as before. Members
-- hold no UPDATE privilege on the ledger, so only the service identity reaches this branch.
create or replace function public.keep_consent_events() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE'
     and current_setting('crm.contact_merge', true) = old.contact_id::text || '>' || new.contact_id::text
     and to_jsonb(new) - 'contact_id' = to_jsonb(old) - 'contact_id' then
    return new;
  end if;
  if tg_op = 'UPDATE' or exists (select 1 from public.contacts c where c.id = old.contact_id) then
    raise exception 'The consent ledger is append-only.' using errcode = 'P0001';
  end if;
  return old;
end
$$;

-- The duplicates list (docs/decisions.md, "Merging contacts"): two contacts are candidates when
-- their phones are the same number (spec 4.10's US normalisation: digits only, a leading 1 of
-- 11 digits removed) or their normalised names are equal and their emails are similar.

-- A phone's comparison key: null for fewer than 7 digits (an extension, a typo), never a match.
create or replace function public.contact_phone_key(phone text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case
           when length(d) < 7 then null
           when length(d) = 11 and left(d, 1) = '1' then substr(d, 2)
           else d
         end
  from (select regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g') as d) x
$$;

-- A name's comparison key: lower case, blanks collapsed; null unless both names are given.
create or replace function public.contact_name_key(first_name text, last_name text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case
           when nullif(btrim(first_name), '') is null or nullif(btrim(last_name), '') is null then null
           else lower(regexp_replace(btrim(first_name) || ' ' || btrim(last_name), '\s+', ' ', 'g'))
         end
$$;

create index contacts_workspace_phone_key_idx on public.contacts (workspace_id, public.contact_phone_key(phone))
  where public.contact_phone_key(phone) is not null;
create index contacts_workspace_name_key_idx
  on public.contacts (workspace_id, public.contact_name_key(first_name, last_name))
  where public.contact_name_key(first_name, last_name) is not null;

-- Email similarity: pg_trgm's similarity of the addresses' local parts (before '@'), so
-- 'jane.doe@a.example' and 'janedoe@b.example' match. pg_trgm is looked up where it is
-- installed (the `extensions` schema, as on Supabase, or where a project already had it).
do $$
declare
  ext_schema text := (
    select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'
  );
begin
  execute format($f$
    create or replace function public.contact_email_similarity(a text, b text) returns real
    language sql immutable parallel safe
    set search_path = ''
    as 'select %I.similarity(split_part(a, ''@'', 1), split_part(b, ''@'', 1))'
  $f$, ext_schema);
end
$$;

-- Pure functions of their arguments: members call them in the duplicates list (a read under RLS).
revoke execute on function public.contact_phone_key(text) from public, anon;
revoke execute on function public.contact_name_key(text, text) from public, anon;
revoke execute on function public.contact_email_similarity(text, text) from public, anon;
grant execute on function public.contact_phone_key(text) to authenticated, service_role;
grant execute on function public.contact_name_key(text, text) to authenticated, service_role;
grant execute on function public.contact_email_similarity(text, text) to authenticated, service_role;
