-- A/B tests of broadcasts (docs/decisions.md, "A/B tests of broadcasts"): a broadcast may carry 2 to 5
-- variants of its subject, preheader and sender name. A deterministic share of the audience (a hash
-- of the contact and the broadcast, lib/email/ab-split.ts) gets the variants first; at the decision
-- time the winner by unique human opens, human clicks or revenue goes to the rest of the audience.

create table public.broadcast_variants (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  broadcast_id uuid not null,
  -- 0 is variant A, the one kept on a tie or too few events
  position smallint not null check (position between 0 and 4),
  subject text not null check (length(btrim(subject)) between 1 and 200),
  preheader text check (preheader is null or length(preheader) <= 200),
  sender_name text check (sender_name is null or length(sender_name) <= 70),
  created_at timestamptz not null default now(),
  unique (broadcast_id, position),
  foreign key (workspace_id, broadcast_id) references public.broadcasts (workspace_id, id) on delete cascade
);
create index broadcast_variants_workspace_idx on public.broadcast_variants (workspace_id, broadcast_id);

-- As public.broadcasts (docs/decisions.md, "The database is the boundary"): members read the
-- variants of their workspaces' broadcasts; the composer writes them through the service door
-- (lib/email/broadcast-door.ts), so a variant cannot change past the draft state or the decision.
alter table public.broadcast_variants enable row level security;
revoke all on public.broadcast_variants from anon, authenticated;
-- SELECT(broadcast_variants): workspace members (spec 5.4: the rows of the caller's workspaces)
create policy broadcast_variants_select_members on public.broadcast_variants for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
grant select on public.broadcast_variants to authenticated;
grant all on public.broadcast_variants to service_role;

-- The test's settings and its decision, on the broadcast (written through the service door only,
-- as every other column of it). ab_decide_at is set once, when the test share's sending is done.
alter table public.broadcasts
  add column ab_test_share smallint check (ab_test_share between 10 and 50),
  add column ab_winner_metric text check (ab_winner_metric in ('opens', 'clicks', 'revenue')),
  add column ab_decide_after_hours smallint check (ab_decide_after_hours between 1 and 168),
  add column ab_decide_at timestamptz,
  add column ab_winner_variant smallint check (ab_winner_variant between 0 and 4),
  add column ab_decided_at timestamptz,
  add column ab_decision_note text,
  add constraint broadcasts_ab_test_complete check (
    (ab_test_share is null) = (ab_winner_metric is null)
    and (ab_test_share is null) = (ab_decide_after_hours is null)),
  add constraint broadcasts_ab_decision_complete check (
    (ab_decided_at is null) = (ab_winner_variant is null));

-- Which variant an email of an A/B broadcast carried (the winner's position for the rest of the
-- audience), so the report counts per variant; null for every other email.
alter table public.email_sends
  add column variant smallint check (variant between 0 and 4);
