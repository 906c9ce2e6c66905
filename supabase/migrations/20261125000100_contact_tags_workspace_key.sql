-- contact_tags.workspace_id is checked twice on every insert: by its own key to workspaces and
-- by the two composite keys (workspace_id, contact_id) -> contacts and (workspace_id, tag_id)
-- -> tags, whose parents each reference workspaces. The composite keys imply the first, and
-- cascade a workspace's deletion through its contacts and tags, so the first key only costs:
-- a third of the referential checks of a CSV import's tags (docs/performance.md; 0.66 s of 3.7 s at
-- 200,000 rows). spec 5.4's rule (no cross-workspace links) rests on the composite keys.
alter table public.contact_tags drop constraint contact_tags_workspace_id_fkey;
