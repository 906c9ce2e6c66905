-- Bulk writes to contacts and contact_tags (spec 4.15 CSV import: 100,000 rows a file)
-- pay for every index entry and every row trigger. Measured per 100,000 contacts: each of
-- the three foreign-key indexes below added ~0.25 s while indexing only nulls for imported,
-- form and webhook contacts. These changes keep every lookup they served.

-- contacts.assigned_user_id, created_by, updated_by: the indexes exist for the foreign keys'
-- ON DELETE SET NULL (finding a deleted profile's contacts), which never looks for null.
drop index if exists public.contacts_assigned_user_idx;
drop index if exists public.contacts_created_by_idx;
drop index if exists public.contacts_updated_by_idx;
create index if not exists contacts_assigned_user_idx on public.contacts (assigned_user_id)
  where assigned_user_id is not null;
create index if not exists contacts_created_by_idx on public.contacts (created_by) where created_by is not null;
create index if not exists contacts_updated_by_idx on public.contacts (updated_by) where updated_by is not null;

-- contact_tags (workspace_id) served only the cascade from a deleted workspace, which also
-- reaches these rows through their contacts (contact_id, on delete cascade).
drop index if exists public.contact_tags_workspace_idx;

-- The workspace fill (fill_workspace_from_contact) runs only for rows written without a
-- workspace_id, as its own test says; the condition is checked without calling the function.
drop trigger if exists contact_tags_fill_workspace on public.contact_tags;
create trigger contact_tags_fill_workspace before insert on public.contact_tags
  for each row when (new.workspace_id is null) execute function public.fill_workspace_from_contact();
drop trigger if exists notes_fill_workspace on public.notes;
create trigger notes_fill_workspace before insert on public.notes
  for each row when (new.workspace_id is null) execute function public.fill_workspace_from_contact();
