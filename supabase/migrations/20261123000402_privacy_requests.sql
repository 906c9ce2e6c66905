-- Privacy requests (issue 16; GDPR articles 15 and 17): the erasure list and the privacy log.
-- Written only by the system (the privacy flows run as service_role after checking that the
-- caller is an owner or admin of the workspace).

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

alter table public.privacy_salts enable row level security;
alter table public.erased_addresses enable row level security;
alter table public.privacy_requests enable row level security;
revoke all on public.privacy_salts, public.erased_addresses, public.privacy_requests from anon, authenticated;
grant all on public.privacy_salts, public.erased_addresses, public.privacy_requests to service_role;

-- SELECT(erased_addresses): members of the workspace (5.4: every table limited to the rows of
-- the caller's workspaces); hashes only, written by the system
grant select on public.erased_addresses to authenticated;
create policy erased_addresses_select_members on public.erased_addresses for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

-- SELECT(privacy_requests): Admin+ of the workspace (the log of who asked for personal data);
-- written by the system
grant select on public.privacy_requests to authenticated;
create policy privacy_requests_select_admins on public.privacy_requests for select to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));

-- privacy_salts: no policy for authenticated, so members see nothing (service_role only)

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
