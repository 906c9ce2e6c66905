-- A large import is run by a job as the member who uploaded it (docs/decisions.md, "Large imports as a
-- job"), and the database reads the token's assurance level (…_second_factor_boundary.sql): the job's
-- claims carry the level the uploader's session had, kept here at upload, never more. A session with
-- two-factor imports into a workspace that requires it; an upload from one without is refused by the
-- job if the workspace has required two-factor since (docs/decisions.md, "The second factor holds at
-- the database"). Written by the server only; members are not granted the column.
alter table public.contact_imports
  add column uploader_aal text not null default 'aal1' check (uploader_aal in ('aal1', 'aal2'));
