-- Secret links (form verification, invitation, sign-up, password reset) are never stored
-- readable in email_sends, which the workspace's members read (docs/decisions.md, "Secret
-- links are kept out of email_sends"). The stored copy says [redacted]; when the dev outbox
-- (no RESEND_API_KEY) is the delivery, the whole email is kept here, where no member reads:
-- no policies, no privileges for anon or authenticated. The server log prints it in
-- development, and tests read it as the database owner.
create table public.email_send_secrets (
  email_send_id uuid primary key references public.email_sends (id) on delete cascade,
  html text,
  text_body text,
  created_at timestamptz not null default now()
);
alter table public.email_send_secrets enable row level security;
revoke all on public.email_send_secrets from anon, authenticated;
grant all on public.email_send_secrets to service_role;

-- keep_email_secret: the one way a member's transaction (an invitation is sent through the
-- user door) writes here. Only for an outbox email inserted by the same transaction, once.
create or replace function public.keep_email_secret(p_email_send_id uuid, p_html text, p_text_body text)
returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if not exists (
    select 1 from public.email_sends e
    where e.id = p_email_send_id and e.status = 'outbox'
      and e.xmin::text::bigint = (pg_catalog.txid_current() % 4294967296)
  ) then
    raise exception 'no outbox email of this transaction' using errcode = '42501';
  end if;
  insert into public.email_send_secrets (email_send_id, html, text_body)
  values (p_email_send_id, p_html, p_text_body);
end;
$$;
revoke execute on function public.keep_email_secret(uuid, text, text) from public, anon;
grant execute on function public.keep_email_secret(uuid, text, text) to authenticated, service_role;
