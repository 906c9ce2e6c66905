-- CSV import mappings (spec 4.15 leaves the columns open; docs/decisions.md, "CSV import"): what each
-- header of an uploaded file becomes (a contact field, tags, a note, or nothing), saved per workspace
-- and proposed again when a file with the same headers comes (in any order). header_digest is the
-- sha256 of the sorted, normalised header list (lib/contacts/import/import-mapping.ts); mapping holds
-- each normalised header's target as the import's zod schema reads it.
create table public.import_mappings (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  header_digest text not null check (header_digest ~ '^[0-9a-f]{64}$'),
  -- the headers as last written, for the page (the digest is what matches)
  headers text[] not null check (cardinality(headers) between 1 and 500),
  mapping jsonb not null check (jsonb_typeof(mapping) = 'object'),
  updated_by uuid references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (workspace_id, header_digest)
);
create index import_mappings_updated_by_idx on public.import_mappings (updated_by) where updated_by is not null;

alter table public.import_mappings enable row level security;
-- Grants, as for every table (…_rls.sql): nothing to anon; members read and write their workspace's
-- mappings (the import runs as the member, and saves the mapping it used in its own transaction)
revoke all on public.import_mappings from anon, authenticated;
grant all on public.import_mappings to service_role;
grant select, insert, update, delete on public.import_mappings to authenticated;
-- SELECT/INSERT/UPDATE/DELETE(import_mappings): not in the spec 5.4 matrix: workspace members, as tags
create policy import_mappings_members_all on public.import_mappings for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

-- A background import (docs/decisions.md, "Large imports as a job") applies the mapping chosen at upload;
-- null: the headers are matched by name, as before. Not granted to members (the row is the system's).
alter table public.contact_imports add column mapping jsonb check (mapping is null or jsonb_typeof(mapping) = 'object');
