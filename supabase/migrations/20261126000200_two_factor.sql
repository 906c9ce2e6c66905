-- A second factor for the local provider (docs/decisions.md, "A second factor: TOTP, recovery
-- codes, step-up"): an account's TOTP secret, its one-time recovery codes, and each workspace's
-- "members must use two-factor" setting. With Supabase Auth configured, Supabase keeps the
-- factors (auth.mfa_factors) and only workspace_security is used.
--
-- Grants: nothing to anon or authenticated, on any of the three. The secrets must never be
-- readable by a member, and the setting is an owner's alone while workspaces' UPDATE is
-- Admin+; the app reads and writes them through the service door after it has checked the
-- session (and, for the setting, the owner's role). RLS is on with no policy: a grant added by
-- mistake still lets no member row through.

-- ---------------------------------------------------------------- TOTP (RFC 6238)
create table public.user_two_factor (
  user_id uuid primary key references auth.users (id) on delete cascade,
  -- the base32 secret sealed with AES-256-GCM (lib/crypto/secret-box.ts): a dump alone does
  -- not reveal it
  secret_sealed text not null,
  -- null while enrolment waits for its first code; the factor counts only once it is set
  enabled_at timestamptz,
  -- the latest TOTP time step accepted: a code is good once, even within its own 30 seconds
  last_used_step bigint,
  created_at timestamptz not null default now()
);

-- ---------------------------------------------------------------- recovery codes
create table public.user_recovery_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  -- lowercase hex SHA-256 of the normalised code; the code itself is shown once
  code_digest text not null,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  unique (user_id, code_digest)
);

-- ---------------------------------------------------------------- workspace setting
create table public.workspace_security (
  workspace_id uuid primary key references public.workspaces (id) on delete cascade,
  -- owners set it: a member without a second factor is sent to enrolment first
  require_two_factor boolean not null default false,
  updated_at timestamptz not null default now()
);
create trigger workspace_security_updated_at before update on public.workspace_security
  for each row execute function public.set_updated_at();

-- ---------------------------------------------------------------- grants and RLS
alter table public.user_two_factor enable row level security;
alter table public.user_recovery_codes enable row level security;
alter table public.workspace_security enable row level security;
revoke all on public.user_two_factor, public.user_recovery_codes, public.workspace_security
  from anon, authenticated, service_role;
-- the service door only: sign-in's second step, enrolment, step-up and the owner's setting
-- (each after the app has checked the session), never a member's JWT
grant select, insert, update, delete on public.user_two_factor, public.user_recovery_codes,
  public.workspace_security to service_role;
