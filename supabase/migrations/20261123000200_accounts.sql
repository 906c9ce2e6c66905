-- Issue 13 (accounts): sign-up proves email ownership, password reset by email link.
-- account_tokens holds the single-use, expiring links of those two flows. Only the SHA-256
-- hex digest of a link's token is stored (token_hash), so a leaked table yields no usable
-- link. A 'sign_up' row carries the pending account (password hash, names, workspace name)
-- in `data`: the account itself is only created when the link is opened, so nobody can
-- hold an account for an address they cannot read mail at (attack 1, pre-claim).
create table public.account_tokens (
  id uuid primary key default gen_random_uuid(),
  purpose text not null check (purpose in ('sign_up', 'reset_password')),
  email text not null check (email = lower(btrim(email))),
  user_id uuid references auth.users (id) on delete cascade,
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  data jsonb not null default '{}'::jsonb,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
-- "the other open links of this address" (a confirmed sign-up or a reset spends them all)
create index account_tokens_open_idx on public.account_tokens (email, purpose) where used_at is null;
create index account_tokens_user_idx on public.account_tokens (user_id) where user_id is not null;
-- the sweep of links a day past their expiry (lib/auth/sweep-account-tokens.ts)
create index account_tokens_expires_idx on public.account_tokens (expires_at);

alter table public.account_tokens enable row level security;
revoke all on public.account_tokens from anon, authenticated;
grant all on public.account_tokens to service_role;
-- No policy on account_tokens: issue 13 (accounts), only the system (service_role, which
-- bypasses RLS) issues and spends account links; no member can read or write them.

-- Account emails (sign-up confirmation, password reset) belong to no workspace: they are
-- email_sends rows without one, which no member's RLS policy matches (a workspace admin
-- must never read a member's reset link in the workspace outbox).
alter table public.email_sends alter column workspace_id drop not null;
