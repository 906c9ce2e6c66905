-- "Not a duplicate" (docs/decisions.md, "Merging contacts"): a pair of contacts a member judged to be
-- two people, left out of the possible-duplicates list. One row per pair whichever way it is written:
-- the app stores the lower id in contact_id, and the unique index on (least, greatest) makes (a, b)
-- and (b, a) one row for any writer. The order is not a check constraint, so a row written the other
-- way (the generic fixtures) is refused only as a second copy of its pair.
create table public.duplicate_dismissals (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  contact_id uuid not null,
  other_contact_id uuid not null,
  -- who said so; the policy holds a member to their own id
  dismissed_by uuid default auth.uid() references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (workspace_id, contact_id, other_contact_id),
  check (contact_id <> other_contact_id),
  -- spec 5.4: both contacts are of the row's workspace; deleting either (a merge deletes B) drops the pair
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade,
  foreign key (workspace_id, other_contact_id) references public.contacts (workspace_id, id) on delete cascade
);
create unique index duplicate_dismissals_pair_key on public.duplicate_dismissals
  (workspace_id, least(contact_id, other_contact_id), greatest(contact_id, other_contact_id));
create index duplicate_dismissals_other_contact_idx on public.duplicate_dismissals (workspace_id, other_contact_id);
create index duplicate_dismissals_dismissed_by_idx on public.duplicate_dismissals (dismissed_by)
  where dismissed_by is not null;

alter table public.duplicate_dismissals enable row level security;
-- Grants, as for every table (…_rls.sql): nothing to anon; members read, add and remove (undo) their
-- workspace's dismissals in their own transaction (the member door); a dismissal is never edited
revoke all on public.duplicate_dismissals from anon, authenticated;
grant all on public.duplicate_dismissals to service_role;
grant select, insert, delete on public.duplicate_dismissals to authenticated;
-- SELECT/DELETE(duplicate_dismissals): not in the spec 5.4 matrix: workspace members, as tags
create policy duplicate_dismissals_select_members on public.duplicate_dismissals for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
create policy duplicate_dismissals_delete_members on public.duplicate_dismissals for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- INSERT(duplicate_dismissals): a member of the workspace, as themselves (least-privilege RLS)
create policy duplicate_dismissals_insert_members on public.duplicate_dismissals for insert to authenticated
  with check (workspace_id in (select public.user_workspace_ids()) and dismissed_by = (select auth.uid()));
