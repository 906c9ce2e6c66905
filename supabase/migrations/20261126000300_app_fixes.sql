-- Secret links (form verification, invitation, sign-up, password reset) are never stored
-- readable in email_sends, which the workspace's members read (docs/decisions.md, "Secret
-- links are kept out of email_sends"). The stored copy says [redacted]; when the dev outbox
-- (no RESEND_API_KEY) is the delivery, the whole email is kept here, where no member reads:
-- no policies, no privileges for anon or authenticated; written through the service door, as
-- email_sends is. The server log prints it in development, and tests read it as the database owner.
create table public.email_send_secrets (
  email_send_id uuid primary key references public.email_sends (id) on delete cascade,
  html text,
  text_body text,
  created_at timestamptz not null default now()
);
alter table public.email_send_secrets enable row level security;
revoke all on public.email_send_secrets from anon, authenticated;
grant all on public.email_send_secrets to service_role;
