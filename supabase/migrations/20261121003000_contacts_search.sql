-- Contacts list search (spec 4.15 getContacts `search`: email, names and phone).
-- A trigram index answers case-insensitive substring matches (LIKE '%term%') on one
-- search text per contact, so a search over 1,000,000 contacts reads the index, not the table.

-- pg_trgm lives in the `extensions` schema, as on Supabase. A project where it was
-- already installed elsewhere keeps it there: the index below looks the schema up.
create schema if not exists extensions;
grant usage on schema extensions to anon, authenticated, service_role;
create extension if not exists pg_trgm with schema extensions;

-- Beyond the spec: the text a search runs against, kept by the database. Email, first and
-- last name (adjacent, so 'Ada Lovelace' matches), the phone as stored and its digits (so
-- '202 555 0143' finds '(202) 555-0143'), lowercased. Stored, so that matching rows are
-- checked by reading a column rather than recomputing the expression.
alter table public.contacts add column search_text text generated always as (
  lower(
    coalesce(email, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '')
    || ' ' || coalesce(phone, '') || ' ' || regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g')
  )
) stored;

do $$
declare
  ext_schema text := (
    select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'
  );
begin
  execute format(
    'create index if not exists contacts_search_trgm_idx on public.contacts using gin (search_text %I.gin_trgm_ops)',
    ext_schema);
end
$$;
