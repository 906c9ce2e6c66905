-- Consent, suppressions, email and notifications (spec 2.6, 3.3, 4.6-4.9, 6.3, 8.3), and
-- privacy requests (erasure list, privacy log; docs/decisions.md, "Privacy requests").
-- Row-level security and grants: *_rls.sql.

create table public.contact_suppressions (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  contact_id uuid not null,
  reason text not null check (reason in ('bounce', 'complaint', 'unsubscribe', 'manual')),
  created_at timestamptz not null default now(),
  -- spec 8.2: one suppression per reason per contact
  constraint contact_suppressions_contact_reason_key unique (contact_id, reason),
  -- spec 5.4: a suppression belongs to a contact of its own workspace
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade
);
create index contact_suppressions_workspace_contact_idx on public.contact_suppressions (workspace_id, contact_id);
-- Spec 5.4: a row written without workspace_id takes its contact's
create trigger contact_suppressions_fill_workspace before insert on public.contact_suppressions
  for each row execute function public.fill_workspace_from_contact();

-- Keeps contacts.email_suppressed: for the contacts whose hard suppressions changed in the
-- statement, whether one is left. A contact being deleted (the cascade) is already gone.
create or replace function public.contact_suppressions_flag() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  ids uuid[];
begin
  if tg_op = 'INSERT' then
    ids := array(select distinct contact_id from new_rows where reason in ('bounce', 'complaint', 'manual'));
  elsif tg_op = 'DELETE' then
    ids := array(select distinct contact_id from old_rows where reason in ('bounce', 'complaint', 'manual'));
  else
    ids := array(select contact_id from old_rows union select contact_id from new_rows);
  end if;
  if cardinality(ids) = 0 then
    return null;
  end if;
  update public.contacts c set email_suppressed = h.hard
  from (
    select i.id, exists (select 1 from public.contact_suppressions s
                         where s.contact_id = i.id and s.reason in ('bounce', 'complaint', 'manual')) as hard
    from unnest(ids) as i(id)
  ) h
  where c.id = h.id and c.email_suppressed is distinct from h.hard;
  return null;
end
$$;

-- Home dashboard (spec 8.3 hard suppressions): a suppression added sets its contact's flag
create trigger contact_suppressions_flag_insert after insert on public.contact_suppressions
  referencing new table as new_rows
  for each statement execute function public.contact_suppressions_flag();
-- Home dashboard: a suppression removed clears the flag when no hard one is left
create trigger contact_suppressions_flag_delete after delete on public.contact_suppressions
  referencing old table as old_rows
  for each statement execute function public.contact_suppressions_flag();
-- Home dashboard: a suppression changed re-reads the flag of the contacts it concerned
create trigger contact_suppressions_flag_update after update on public.contact_suppressions
  referencing old table as old_rows new table as new_rows
  for each statement execute function public.contact_suppressions_flag();

-- Spec 3.3: "A 'complaint' suppression is never removed by any flow." The application
-- enforces it; this is the second wall, for every caller including the service role: a
-- complaint row is never updated (not its reason, contact, workspace or date), and never
-- deleted while its contact exists. Deleting the contact (or its workspace) still
-- cascades: then the contact row is already gone when this trigger runs.
-- security definer: the contact's existence is checked whatever the caller may see.
create or replace function public.keep_complaint_suppressions() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.reason = 'complaint'
     and (tg_op = 'UPDATE'
          or exists (select 1 from public.contacts c where c.id = old.contact_id))
  then
    raise exception 'A complaint suppression is permanent.' using errcode = 'P0001';
  end if;
  return coalesce(new, old);
end
$$;
-- Spec 3.3: a complaint suppression is never removed by any flow
create trigger contact_suppressions_keep_complaints
  before update or delete on public.contact_suppressions
  for each row execute function public.keep_complaint_suppressions();

-- Beyond the spec: an append-only ledger of every consent change (proof for GDPR requests).
create table public.consent_events (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  contact_id uuid not null,
  action text not null check (action in ('subscribed', 'unsubscribed', 'suppressed', 'unsuppressed')),
  flow text not null,
  source text,
  legal_basis text,
  reason text,
  ip inet,
  actor_user_id uuid references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade
);
create index consent_events_contact_idx on public.consent_events (contact_id, created_at desc);
create index consent_events_workspace_contact_idx on public.consent_events (workspace_id, contact_id);
create index consent_events_actor_idx on public.consent_events (actor_user_id);
-- Spec 5.4: a row written without workspace_id takes its contact's
create trigger consent_events_fill_workspace before insert on public.consent_events
  for each row execute function public.fill_workspace_from_contact();

-- Beyond the spec (spec 3.3 consent state; proof for GDPR requests): the consent ledger is
-- append-only. RLS already gives
-- members no UPDATE or DELETE; this trigger holds the same line for the system
-- (service_role bypasses RLS). Deleting the contact or its workspace still cascades: then
-- the contact row is already gone when the trigger runs (an erasure request removes the
-- proof together with the person).
create or replace function public.keep_consent_events() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' or exists (select 1 from public.contacts c where c.id = old.contact_id) then
    raise exception 'The consent ledger is append-only.' using errcode = 'P0001';
  end if;
  return old;
end
$$;

-- Beyond the spec (spec 3.3): no consent ledger entry is changed, none removed while its
-- contact exists
create trigger consent_events_append_only
  before update or delete on public.consent_events
  for each row execute function public.keep_consent_events();

create table public.broadcasts (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  subject text not null,
  body_html text not null default '',
  audience jsonb not null default '{}'::jsonb,
  -- Broadcasts run as a job (docs/decisions.md, "Broadcasts"): 'sending' while it works on it; 'paused' and
  -- 'cancelled' are read by the job before each batch.
  status text not null default 'draft'
    check (status in ('draft', 'sending', 'paused', 'cancelled', 'sent', 'failed')),
  created_by uuid references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  sent_at timestamptz,
  -- Beyond the spec (spec 6.4 outgoing email): a broadcast keeps the plain-text body it was
  -- composed in beside the HTML made from it, so every email carries both parts.
  body_text text not null default '',
  -- Where the broadcast's claims have reached in contact id order: each batch takes the
  -- audience's next contacts after it, so a batch costs the same at the end of 100,000 contacts
  -- as at the start.
  claim_cursor uuid,
  constraint broadcasts_workspace_id_id_key unique (workspace_id, id)
);
create index broadcasts_workspace_idx on public.broadcasts (workspace_id, created_at desc);
create index broadcasts_created_by_idx on public.broadcasts (created_by);
-- broadcasts.updated_at kept by the database
create trigger broadcasts_updated_at before update on public.broadcasts
  for each row execute function public.set_updated_at();

-- Every email, sent or skipped. Without RESEND_API_KEY the html is kept here: the dev outbox.
-- Account emails (sign-up confirmation, password reset) belong to no workspace: they
-- are rows without one, which no member's RLS policy matches (a workspace admin must never
-- read a member's reset link in the workspace outbox).
create table public.email_sends (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid references public.workspaces (id) on delete cascade,
  contact_id uuid,
  broadcast_id uuid,
  to_email text not null,
  kind text not null check (kind in ('marketing', 'transactional')),
  subject text not null default '',
  html text,
  text_body text,
  headers jsonb not null default '{}'::jsonb,
  status text not null default 'queued'
    check (status in ('queued', 'sent', 'outbox', 'skipped', 'failed', 'bounced', 'complained')),
  skip_reason text,
  provider text,
  provider_message_id text,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id)
    on delete set null (contact_id),
  foreign key (workspace_id, broadcast_id) references public.broadcasts (workspace_id, id)
    on delete set null (broadcast_id)
);
create index email_sends_workspace_created_idx on public.email_sends (workspace_id, created_at desc);
create index email_sends_contact_idx on public.email_sends (contact_id, workspace_id);
-- only broadcast sends carry a broadcast (the bulk of sends are transactional)
create index email_sends_broadcast_idx on public.email_sends (broadcast_id, workspace_id)
  where broadcast_id is not null;
create index email_sends_provider_message_idx on public.email_sends (provider_message_id);
-- a broadcast reaches each contact at most once, however often it is resumed
create unique index email_sends_broadcast_contact_key on public.email_sends (broadcast_id, contact_id)
  where broadcast_id is not null;

create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  user_id uuid references public.user_profiles (id) on delete cascade,
  contact_id uuid,
  type text not null,
  title text not null,
  body text not null default '',
  action_url text,
  action_label text,
  created_at timestamptz not null default now(),
  constraint notifications_workspace_id_id_key unique (workspace_id, id),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id)
    on delete set null (contact_id)
);
create index notifications_workspace_created_idx on public.notifications (workspace_id, created_at desc);
create index notifications_user_idx on public.notifications (user_id);
create index notifications_contact_idx on public.notifications (contact_id, workspace_id);

create table public.notification_reads (
  notification_id uuid not null,
  user_id uuid not null references public.user_profiles (id) on delete cascade,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  read_at timestamptz not null default now(),
  primary key (notification_id, user_id),
  foreign key (workspace_id, notification_id) references public.notifications (workspace_id, id)
    on delete cascade
);
create index notification_reads_user_idx on public.notification_reads (user_id);
create index notification_reads_workspace_notification_idx on public.notification_reads (workspace_id, notification_id);

-- Privacy requests, GDPR articles 15 and 17 (docs/decisions.md, "Privacy requests"): the erasure list and the
-- log. Written only by the system (the privacy flows run as service_role after checking that the
-- caller is an owner or admin of the workspace); what members read: *_rls.sql.

-- A random salt per workspace for the erasure list's address hashes: without the salt a
-- hash of a guessed address cannot be matched, and one workspace's list says nothing about
-- another's. Never readable by members.
create table public.privacy_salts (
  workspace_id uuid primary key references public.workspaces (id) on delete cascade,
  salt bytea not null check (octet_length(salt) >= 16)
);

-- An erased address: only its salted hash (lowercase hex SHA-256 of salt || lower(email))
-- and when. Lets an import or a checkout say "this address was erased on …" instead of
-- silently re-creating the person with marketing consent.
create table public.erased_addresses (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  address_hash text not null check (address_hash ~ '^[0-9a-f]{64}$'),
  erased_at timestamptz not null default now(),
  primary key (workspace_id, address_hash)
);

-- The privacy log (until the audit log exists): who exported or erased which contact, when.
-- contact_id has no foreign key so the entry outlives the contact; an erasure clears it on
-- every earlier entry and keeps only the address hash.
create table public.privacy_requests (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  kind text not null check (kind in ('export', 'erase')),
  contact_id uuid,
  address_hash text check (address_hash ~ '^[0-9a-f]{64}$'),
  actor_user_id uuid references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now()
);
create index privacy_requests_workspace_idx on public.privacy_requests (workspace_id, created_at desc);
create index privacy_requests_contact_idx on public.privacy_requests (contact_id) where contact_id is not null;
create index privacy_requests_actor_idx on public.privacy_requests (actor_user_id);

-- The salted hash of an address in a workspace; null when the workspace has no salt yet
-- (then nothing was ever erased there). A signed-in member gets hashes only for their own
-- workspaces (the CSV import runs as the member); the system (no auth.uid()) for any.
create or replace function public.erased_address_hash(ws uuid, email text) returns text
language sql stable security definer
set search_path = ''
as $$
  select encode(sha256(s.salt || convert_to(lower(btrim(email)), 'UTF8')), 'hex')
  from public.privacy_salts s
  where s.workspace_id = ws
    and ((select auth.uid()) is null or ws in (select public.user_workspace_ids()))
$$;
revoke execute on function public.erased_address_hash(uuid, text) from public, anon;
grant execute on function public.erased_address_hash(uuid, text) to authenticated, service_role;
