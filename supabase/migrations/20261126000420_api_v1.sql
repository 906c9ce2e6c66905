-- The REST API v1 (DESIGN section 8; docs/decisions.md "REST API v1", NOTES-api-core.md).

-- Scoped keys. Keys issued before scopes existed served only the public events list, so they
-- keep exactly that: '{events:read}' (spec 4.14 keeps working). Every scope is one of the list.
alter table public.api_keys
  add column scopes text[] not null default '{events:read}',
  add column expires_at timestamptz,
  add column last_used_ip text;
alter table public.api_keys
  add constraint api_keys_scopes_check check (
    scopes <@ array['contacts:read', 'contacts:write', 'consent:write', 'events:read',
                    'transactions:read', 'transactions:write', 'forms:read', 'webhooks:write',
                    'email:read']::text[]
    and array_position(scopes, null) is null),
  add constraint api_keys_last_used_ip_check check (last_used_ip is null or length(last_used_ip) <= 64);
-- members read their workspace's key list with its scopes, expiry and last use (never the digest)
grant select (scopes, expires_at, last_used_ip) on public.api_keys to authenticated;

-- Contacts created through the API carry source 'api' (DESIGN section 8).
alter table public.contacts drop constraint contacts_source_check;
alter table public.contacts add constraint contacts_source_check
  check (source in ('manual', 'form', 'import', 'ticketing', 'payproc', 'event', 'api'));

-- A write made with a key names the key as the actor (DESIGN section 8, "Audit"): the key's id
-- and its name as it was then (the log is append-only and outlives a rename). A row has a member
-- actor, a key actor, or neither (the system), never both.
alter table public.audit_log
  add column actor_api_key_id uuid,
  add column actor_api_key_name text;
alter table public.audit_log
  add constraint audit_log_one_actor_check check (actor_id is null or actor_api_key_id is null),
  add constraint audit_log_api_key_name_check check ((actor_api_key_id is null) = (actor_api_key_name is null));
-- the consent ledger's actor, likewise: a member (actor_user_id) or a key
alter table public.consent_events add column actor_api_key_id uuid;
alter table public.consent_events
  add constraint consent_events_one_actor_check check (actor_user_id is null or actor_api_key_id is null);

-- Idempotency-Key (DESIGN section 8): the first answer to a key's POST with this header, kept
-- 24 hours. The row is inserted first, in the request's own transaction, so a concurrent
-- duplicate waits on the unique index and then reads the committed answer (exactly one
-- effect). The fingerprint is the SHA-256 of method, path and body: the same header with
-- another request is a conflict. Only the service writes or reads it (no member privilege).
alter table public.api_keys add constraint api_keys_workspace_id_id_key unique (workspace_id, id);
create table public.api_idempotency_keys (
  api_key_id uuid not null,
  idempotency_key text not null check (length(idempotency_key) between 1 and 255),
  workspace_id uuid not null,
  fingerprint text not null check (fingerprint ~ '^[0-9a-f]{64}$'),
  status integer check (status between 100 and 599),
  response jsonb,
  created_at timestamptz not null default now(),
  primary key (api_key_id, idempotency_key),
  foreign key (workspace_id, api_key_id) references public.api_keys (workspace_id, id) on delete cascade
);
create index api_idempotency_keys_key_idx on public.api_idempotency_keys (workspace_id, api_key_id);
create index api_idempotency_keys_created_idx on public.api_idempotency_keys (created_at);
alter table public.api_idempotency_keys enable row level security;
revoke all on public.api_idempotency_keys from anon, authenticated;
grant select, insert, update, delete on public.api_idempotency_keys to service_role;

-- Per-key rate limit: one fixed window counter per key, bumped by one statement in a
-- transaction of its own before the request's (a refused request must not roll it back).
create table public.api_rate_limits (
  api_key_id uuid primary key references public.api_keys (id) on delete cascade,
  window_start timestamptz not null,
  hits integer not null check (hits >= 0)
);
alter table public.api_rate_limits enable row level security;
revoke all on public.api_rate_limits from anon, authenticated;
grant select, insert, update, delete on public.api_rate_limits to service_role;
