-- Campaigns that run (docs/decisions.md, "Campaigns as versioned step lists" and "Campaign waits
-- as a due-time index"; DESIGN section 9, "Campaigns"): a campaign is a draft step list and its
-- published versions; an enrollment runs its version's steps, one at a time, when its due_at comes.

-- The campaign: its draft (edited freely), its settings, and the version publishing made last.
alter table public.campaigns
  add column steps jsonb not null default '[]'::jsonb,
  add column goals jsonb not null default '[]'::jsonb,
  -- false: a contact is enrolled at most once, ever; true: again once the last enrollment ended
  add column allow_reenrollment boolean not null default true,
  -- the zone a wait "until Monday 09:00" is read in (workspaces keep no zone of their own)
  add column timezone text not null default 'UTC' check (length(timezone) between 1 and 64),
  add column published_version integer check (published_version >= 1);

-- A published version: the steps and goals as they were when published, never changed after.
create table public.campaign_versions (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  campaign_id uuid not null,
  version integer not null check (version >= 1),
  steps jsonb not null,
  goals jsonb not null default '[]'::jsonb,
  published_at timestamptz not null default now(),
  unique (workspace_id, id),
  unique (campaign_id, version),
  foreign key (workspace_id, campaign_id) references public.campaigns (workspace_id, id) on delete cascade
);
-- the key's referential action (a campaign deleted) finds its versions
create index campaign_versions_workspace_campaign_idx on public.campaign_versions (workspace_id, campaign_id);
alter table public.campaign_versions enable row level security;
-- SELECT(campaign_versions): workspace members read the versions (spec 5.4); only the service writes them
create policy campaign_versions_members_read on public.campaign_versions for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- published only through the service (lib/campaigns/publish-campaign.ts): a version is never edited
revoke all on public.campaign_versions from anon, authenticated;
grant select on public.campaign_versions to authenticated;
grant all on public.campaign_versions to service_role;

-- The enrollment: which version it runs, the step it stands on, and when that step is due.
alter table public.campaign_enrollments drop constraint campaign_enrollments_status_check;
alter table public.campaign_enrollments
  add constraint campaign_enrollments_status_check
    check (status in ('active', 'completed', 'cancelled', 'exited')),
  add column exit_reason text check (length(exit_reason) <= 500),
  add column version integer check (version >= 1),
  add column current_step text check (length(current_step) <= 64),
  -- null: nothing to run (ended, or the campaign has no published version yet)
  add column due_at timestamptz,
  add column ended_at timestamptz,
  add constraint campaign_enrollments_workspace_id_id_key unique (workspace_id, id);
-- the runner's sweep: due active enrollments, oldest first (a partial index: ended ones leave it)
create index campaign_enrollments_due_idx on public.campaign_enrollments (due_at)
  where status = 'active' and due_at is not null;

-- Every enrollment, whoever inserts it (an automation, the API, a member), starts on the
-- campaign's published version at once; one enrolled before any publication waits for it.
create or replace function public.campaign_enrollments_start() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status = 'active' and new.version is null then
    select c.published_version into new.version
    from public.campaigns c where c.id = new.campaign_id and c.workspace_id = new.workspace_id;
    if new.version is not null and new.due_at is null then
      new.due_at := now();
    end if;
  end if;
  if new.status <> 'active' then
    new.due_at := null;
  end if;
  return new;
end
$$;
create trigger campaign_enrollments_start before insert on public.campaign_enrollments
  for each row execute function public.campaign_enrollments_start();

-- An email a campaign step sent: its enrollment, step and version. The unique key makes a send
-- step exactly once per enrollment, whatever crashes and retries (docs/decisions.md).
alter table public.email_sends
  add column campaign_enrollment_id uuid,
  add column campaign_step text check (length(campaign_step) <= 64),
  add column campaign_version integer,
  add constraint email_sends_workspace_id_campaign_enrollment_id_fkey
    foreign key (workspace_id, campaign_enrollment_id)
    references public.campaign_enrollments (workspace_id, id) on delete set null (campaign_enrollment_id),
  add constraint email_sends_campaign_origin_check
    check (campaign_enrollment_id is null or (campaign_step is not null and campaign_version is not null));
create unique index email_sends_campaign_step_key on public.email_sends
  (campaign_enrollment_id, campaign_step, campaign_version) where campaign_enrollment_id is not null;
-- the key's referential action (an enrollment deleted with its contact or campaign) finds its emails
create index email_sends_campaign_enrollment_idx on public.email_sends (workspace_id, campaign_enrollment_id)
  where campaign_enrollment_id is not null;

-- What each step of each enrollment came to: the contact's timeline and the per-step numbers.
create table public.campaign_step_runs (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  enrollment_id uuid not null,
  campaign_id uuid not null,
  version integer not null,
  step_id text not null check (length(step_id) <= 64),
  outcome text not null check (outcome in ('sent', 'waiting', 'branched', 'tagged', 'untagged', 'exited', 'completed', 'skipped')),
  detail text check (length(detail) <= 500),
  at timestamptz not null default now(),
  foreign key (workspace_id, enrollment_id) references public.campaign_enrollments (workspace_id, id) on delete cascade,
  foreign key (workspace_id, campaign_id) references public.campaigns (workspace_id, id) on delete cascade
);
-- led by workspace_id: the keys' referential actions find their rows, and every read names the workspace
create index campaign_step_runs_enrollment_idx on public.campaign_step_runs (workspace_id, enrollment_id, at);
create index campaign_step_runs_campaign_idx on public.campaign_step_runs (workspace_id, campaign_id, version, step_id);
alter table public.campaign_step_runs enable row level security;
-- SELECT(campaign_step_runs): workspace members read the step log (timeline, numbers); only the runner writes it
create policy campaign_step_runs_members_read on public.campaign_step_runs for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- written only by the runner (the service)
revoke all on public.campaign_step_runs from anon, authenticated;
grant select on public.campaign_step_runs to authenticated;
grant all on public.campaign_step_runs to service_role;

-- The `campaigns:read` and `campaigns:write` scopes (DESIGN section 9, "Campaigns"); the list is
-- the same as lib/api/v1/scopes.ts.
alter table public.api_keys drop constraint api_keys_scopes_check;
alter table public.api_keys
  add constraint api_keys_scopes_check check (
    scopes <@ array['contacts:read', 'contacts:write', 'consent:write', 'events:read',
                    'transactions:read', 'transactions:write', 'forms:read', 'webhooks:write',
                    'email:read', 'email:write', 'campaigns:read', 'campaigns:write']::text[]
    and array_position(scopes, null) is null);
