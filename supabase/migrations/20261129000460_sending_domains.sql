-- Each workspace's own sending domain (docs/decisions.md, "Sending domains and warm-up"): a domain
-- added through Resend's Domains API, the DNS records Resend asks for, and the status Resend reports
-- (DESIGN section 9: sending_domains (workspace_id, domain, status)).
create table public.sending_domains (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  -- a lowercased hostname: labels of letters, digits and inner hyphens, at least two of them
  domain text not null
    check (length(domain) <= 253
           and domain = lower(domain)
           and domain ~ '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$'),
  -- as Resend's Domains API names a domain's (and a record's) status
  status text not null default 'not_started'
    check (status in ('not_started', 'pending', 'verified', 'partially_verified', 'partially_failed',
                      'failed', 'temporary_failure')),
  provider_domain_id text,
  records jsonb not null default '[]',
  region text not null default 'us-east-1',
  created_at timestamptz not null default now(),
  verified_at timestamptz,
  last_checked_at timestamptz,
  -- the domain's _dmarc TXT record when last looked up: {found, record, policy, checked_at}
  dmarc jsonb,
  -- the target of workspace-scoped links (spec 5.4): a row of one workspace never names another's domain
  unique (workspace_id, id)
);
create index sending_domains_workspace_idx on public.sending_domains (workspace_id, created_at);
-- a workspace adds a domain once
create unique index sending_domains_workspace_domain_key on public.sending_domains (workspace_id, domain);
-- A verified domain belongs to one workspace: another may add it (its owner may not have verified it
-- yet, and a squatter must not block its owner), but only one row of a domain is ever verified.
create unique index sending_domains_verified_key on public.sending_domains (domain) where status = 'verified';
-- the verify job's sweep: domains whose status may still change
create index sending_domains_unsettled_idx on public.sending_domains (last_checked_at nulls first)
  where status <> 'verified' and status <> 'failed';

alter table public.sending_domains enable row level security;
revoke all on public.sending_domains from anon, authenticated;
-- SELECT(sending_domains): workspace members (the settings page shows every member the domains)
grant select on public.sending_domains to authenticated;
create policy sending_domains_select_members on public.sending_domains for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- No INSERT, UPDATE or DELETE for members: status, records and the provider's id come from
-- Resend, so a member writing them could mark a domain verified that Resend never verified and send
-- as it. Owners and admins add, check and remove domains through the service door after the
-- role check (lib/email/flows/manage-sending-domain.ts).
grant all on public.sending_domains to service_role;

-- The warm-up's count (docs/decisions.md, "Sending domains and warm-up"): emails a domain's
-- broadcasts took per UTC day, reserved before they are claimed so concurrent runs share the cap.
create table public.sending_domain_days (
  sending_domain_id uuid not null,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  day date not null,
  sent integer not null default 0 check (sent >= 0),
  primary key (sending_domain_id, day),
  foreign key (workspace_id, sending_domain_id) references public.sending_domains (workspace_id, id) on delete cascade
);
create index sending_domain_days_workspace_idx on public.sending_domain_days (workspace_id, sending_domain_id);
alter table public.sending_domain_days enable row level security;
revoke all on public.sending_domain_days from anon, authenticated;
-- service only: the broadcast job writes it; no screen reads it yet
grant all on public.sending_domain_days to service_role;
-- like every workspace table, closed to a token without the second factor its workspace requires
-- (docs/decisions.md, "The second factor holds at the database"), whatever grants come later
create policy sending_domain_days_second_factor on public.sending_domain_days as restrictive for all to authenticated
  using (workspace_id <> all ((select public.aal_blocked_workspaces())::uuid[]))
  with check (workspace_id <> all ((select public.aal_blocked_workspaces())::uuid[]));

-- A workspace's From on its verified domain: display name, local part and domain. Written through
-- the service door after the check that the domain is the workspace's and verified (a member's
-- PATCH could name any domain); the sender checks again when it sends.
alter table public.workspaces
  add column email_from_name text
    check (email_from_name is null or (length(email_from_name) <= 70 and email_from_name !~ '[\r\n"\\<>]')),
  add column email_from_local text
    check (email_from_local is null or (length(email_from_local) <= 64 and email_from_local ~ '^[a-z0-9!#$%&''*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&''*+/=?^_`{|}~-]+)*$')),
  add column email_from_domain text
    check (email_from_domain is null or email_from_domain = lower(email_from_domain));

-- A broadcast's own From, optional, on one of its workspace's verified domains (written through the
-- broadcast door, as every broadcast column).
alter table public.broadcasts
  add column from_name text
    check (from_name is null or (length(from_name) <= 70 and from_name !~ '[\r\n"\\<>]')),
  add column from_local text
    check (from_local is null or (length(from_local) <= 64 and from_local ~ '^[a-z0-9!#$%&''*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&''*+/=?^_`{|}~-]+)*$')),
  add column from_domain text
    check (from_domain is null or from_domain = lower(from_domain));
