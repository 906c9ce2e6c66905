-- Spec 4.15 getContacts at 1,000,000 contacts: `source` is both a filter (then ordered by
-- created_at, id) and a sort key (source, created_at, id), in either direction. One index
-- in that order serves all four, read forwards or backwards; it replaces the narrower one.
drop index if exists public.contacts_workspace_source_idx;
create index if not exists contacts_workspace_source_created_idx
  on public.contacts (workspace_id, source, created_at, id);

-- Tag filters (spec 4.15: any / all / exclude) read contact ids by tag. Under RLS each row's
-- workspace_id is checked as well; with it in the index the reads are index-only (no visit
-- to the table for each of the tag's contacts). Replaces the (tag_id, contact_id) index.
drop index if exists public.contact_tags_tag_contact_idx;
create index if not exists contact_tags_tag_workspace_contact_idx
  on public.contact_tags (tag_id, workspace_id, contact_id);
