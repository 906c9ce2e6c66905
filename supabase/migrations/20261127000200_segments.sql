-- Saved segments (docs/decisions.md, "Segments"): a named contact filter (lib/segments/filter.ts,
-- versioned JSON validated by zod before every use) shared by the contact list, broadcasts,
-- exports and the REST API. The count is never stored: it is computed from the filter when read.

create table public.segments (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 100),
  -- the filter object; the application refuses one that does not parse (a member may write this
  -- column through the REST API, so its shape is checked here only as far as SQL can)
  filter jsonb not null check (jsonb_typeof(filter) = 'object' and filter ->> 'version' = '1'
                               and pg_column_size(filter) <= 65536),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint segments_workspace_id_id_key unique (workspace_id, id),
  constraint segments_workspace_name_key unique (workspace_id, name)
);
-- segments.updated_at kept by the database
create trigger segments_updated_at before update on public.segments
  for each row execute function public.set_updated_at();

-- Spec 5.4 "every table is limited to the rows of the caller's workspaces": segments are a
-- shared view of the workspace's contacts, so every member reads and edits them, as tags.
alter table public.segments enable row level security;
revoke all on public.segments from anon, authenticated;
grant select, insert, update, delete on public.segments to authenticated;
grant all on public.segments to service_role;
-- SELECT/INSERT/UPDATE/DELETE(segments): workspace members, their workspace's rows only
create policy segments_members_all on public.segments for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

-- A broadcast may target a segment (audience = marketing-eligible contacts of spec 8.3 that
-- match the audience and the segment). The pair key keeps the segment in the broadcast's own
-- workspace whoever writes the row; deleting the segment leaves the broadcast without one.
alter table public.broadcasts add column segment_id uuid;
alter table public.broadcasts add constraint broadcasts_segment_fkey
  foreign key (workspace_id, segment_id) references public.segments (workspace_id, id)
  on delete set null (segment_id);
create index broadcasts_segment_idx on public.broadcasts (workspace_id, segment_id);

-- Counts at a million contacts read indexes for the common conditions (npm run bench -- segments):
-- purchases of a product in a date range, the form and event conditions by their id, and a
-- contact's sends for the engagement conditions already have theirs. These two are new:
-- "purchased (product, amount, date)" starting from the product,
create index transactions_workspace_product_date_idx on public.transactions
  (workspace_id, product_id, transaction_date) include (contact_id, amount_paid, status);
-- and consent state without reading every contact row (index-only scans).
create index contacts_workspace_consent_idx on public.contacts
  (workspace_id, is_subscribed, (unsubscribed_at is null), email_suppressed, id);
