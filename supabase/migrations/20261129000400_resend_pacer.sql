-- Sending at the provider's limit (docs/decisions.md, "One pacer per Resend key"). Resend allows a
-- team a few requests per second across every key and process; each process asking on its own turned
-- a busy minute into 429s that the broadcast job recorded as failed mail. One row per Resend key
-- (named by a digest, never the key) holds when the next request may start; every process takes its
-- turn from it in one statement, so the rate is kept together by every worker and web process.
create table public.provider_pacers (
  -- 'resend:' and the first 16 hex digits of the key's SHA-256
  id text primary key check (id ~ '^[a-z]+:[0-9a-f]{16}$'),
  -- the earliest start of the next turn (each turn moves it by 1 / rate)
  next_at timestamptz not null default now(),
  -- a 429's retry-after: no turn starts before it
  blocked_until timestamptz,
  -- ratelimit-limit as the provider last answered it: a lower limit than configured is kept to
  provider_limit integer check (provider_limit > 0),
  -- turns taken and 429s answered, for the metrics and the sending benchmark
  turns bigint not null default 0,
  limited bigint not null default 0
);
alter table public.provider_pacers enable row level security;
revoke all on public.provider_pacers from anon, authenticated;
grant select, insert, update, delete on public.provider_pacers to service_role;

-- Why a broadcast paused itself (the provider refused past every retry), shown on its report; cleared
-- when it is resumed.
alter table public.broadcasts add column paused_reason text;

-- A broadcast's claimed row is its runner's (the job) to deliver until its lease ends; another
-- runner (a second job on the same broadcast, a resume racing the first) takes only rows whose
-- lease ran out, so it does not spend the provider's rate sending the same batch again under its
-- key. The runner's own retry after a crash takes its rows at once.
alter table public.email_sends add column lease_until timestamptz, add column lease_owner text;
