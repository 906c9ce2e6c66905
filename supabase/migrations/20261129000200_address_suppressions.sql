-- Suppressions belong to the address (docs/decisions.md, "Suppressions belong to the address";
-- spec 3.3 "a 'complaint' suppression is never removed by any flow", spec 8.3): a contact's
-- suppressions are also kept per workspace under the salted digest of its address (the erasure
-- list's digest, public.erased_address_hash), so deleting the contact, changing its email or
-- merging it away does not launder consent. A contact created with (or moved to) an address on
-- the list gets its rows back, so every flow and the eligibility rules of 8.3, which read the
-- contact's rows, see them. Written only by the triggers below, whoever writes the suppressions.

-- The workspace's salt for the address digests, made on first use (the erasure list's too).
-- 32 bytes from two gen_random_uuid() (pg_strong_random; no pgcrypto on the embedded database).
create or replace function public.ensure_privacy_salt(ws uuid) returns void
language sql volatile security definer
set search_path = ''
as $$
  insert into public.privacy_salts (workspace_id, salt)
  values (ws, decode(replace(pg_catalog.gen_random_uuid()::text || pg_catalog.gen_random_uuid()::text, '-', ''), 'hex'))
  on conflict (workspace_id) do nothing
$$;
-- the erasure (lib/privacy/erased-addresses.ts) runs as the service
grant execute on function public.ensure_privacy_salt(uuid) to service_role;

create table public.address_suppressions (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  -- public.erased_address_hash(workspace_id, email): hex SHA-256 of the salt and the normalised address
  address_hash text not null check (address_hash ~ '^[0-9a-f]{64}$'),
  reason text not null check (reason in ('bounce', 'complaint', 'unsubscribe', 'manual')),
  created_at timestamptz not null default now(),
  primary key (workspace_id, address_hash, reason)
);

-- Spec 5.4 and docs/decisions.md "Suppressions belong to the address": no member reads or writes
-- the list (no screen shows it: the contact's restored rows are what the dashboard shows); only
-- the triggers below (security definer) and the service write it.
alter table public.address_suppressions enable row level security;
revoke all on public.address_suppressions from anon, authenticated;
grant all on public.address_suppressions to service_role;

-- Every suppression recorded (any writer: bounce and complaint events, the consent flows, a
-- member's manual block, a merge's copy, a restore) is recorded for the contact's address.
create or replace function public.address_suppressions_record() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform public.ensure_privacy_salt(w.workspace_id) from (select distinct workspace_id from new_rows) w;
  insert into public.address_suppressions (workspace_id, address_hash, reason, created_at)
  select n.workspace_id, public.erased_address_hash(n.workspace_id, c.email), n.reason, n.created_at
  from new_rows n join public.contacts c on c.id = n.contact_id
  on conflict (workspace_id, address_hash, reason) do nothing;
  return null;
end
$$;
-- docs/decisions.md "Suppressions belong to the address": a suppression added is kept for the address
create trigger contact_suppressions_address_record after insert on public.contact_suppressions
  referencing new table as new_rows
  for each statement execute function public.address_suppressions_record();

-- A suppression a flow removes (spec 4.2.3, 4.6, 4.9, 4.13, the dashboard's removal, an import's
-- consent) leaves the address's list too. One the database removes on the way (pg_trigger_depth()
-- > 1: the cascade of a contact's deletion, the email change below) stays: that is the point of
-- the list. A complaint is never removed while its contact exists (keep_complaint_suppressions).
create or replace function public.address_suppressions_forget() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if pg_catalog.pg_trigger_depth() > 1 then
    return null;
  end if;
  delete from public.address_suppressions a
  using old_rows o join public.contacts c on c.id = o.contact_id
  where o.reason <> 'complaint'
    and a.workspace_id = o.workspace_id
    and a.address_hash = public.erased_address_hash(c.workspace_id, c.email)
    and a.reason = o.reason;
  return null;
end
$$;
-- docs/decisions.md "Suppressions belong to the address": a suppression a flow clears leaves the list
create trigger contact_suppressions_address_forget after delete on public.contact_suppressions
  referencing old table as old_rows
  for each statement execute function public.address_suppressions_forget();

-- The contact's rows back from its address's list, with their first date and a ledger entry each.
create or replace function public.restore_address_suppressions(ids uuid[]) returns void
language sql volatile security definer
set search_path = ''
as $$
  with restored as (
    insert into public.contact_suppressions (workspace_id, contact_id, reason, created_at)
    select c.workspace_id, c.id, a.reason, a.created_at
    from public.contacts c
    join public.address_suppressions a
      on a.workspace_id = c.workspace_id and a.address_hash = public.erased_address_hash(c.workspace_id, c.email)
    where c.id = any (ids)
    on conflict (contact_id, reason) do nothing
    returning workspace_id, contact_id, reason
  )
  insert into public.consent_events (workspace_id, contact_id, action, flow, reason, actor_user_id)
  select r.workspace_id, r.contact_id, 'suppressed', 'address_list', r.reason, (select auth.uid())
  from restored r
$$;

-- A contact created with an address on the list gets its suppressions back (spec 3.3, 8.3).
-- Skipped at once where the workspace has no list, so a bulk import pays one lookup.
create or replace function public.contacts_restore_suppressions() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.address_suppressions a
             where a.workspace_id in (select distinct n.workspace_id from new_rows n)) then
    perform public.restore_address_suppressions(array(select n.id from new_rows n));
  end if;
  return null;
end
$$;
-- docs/decisions.md "Suppressions belong to the address": re-creating an address restores its suppressions
create trigger contacts_restore_suppressions after insert on public.contacts
  referencing new table as new_rows
  for each statement execute function public.contacts_restore_suppressions();

-- An email change: the old address's bounce stays on that address, not on the contact (the new
-- address has not bounced; its ledger entry as before); the contact's other suppressions follow
-- the person to the new address (a complaint is never removed, spec 3.3), and the new address's
-- own are restored.
create or replace function public.contacts_readdress_suppressions() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  with removed as (
    delete from public.contact_suppressions
    where contact_id = new.id and reason = 'bounce'
    returning workspace_id, contact_id
  )
  insert into public.consent_events (workspace_id, contact_id, action, flow, reason, actor_user_id)
  select r.workspace_id, r.contact_id, 'unsuppressed', 'email_change', 'bounce', (select auth.uid())
  from removed r;
  perform public.ensure_privacy_salt(new.workspace_id);
  insert into public.address_suppressions (workspace_id, address_hash, reason, created_at)
  select s.workspace_id, public.erased_address_hash(s.workspace_id, new.email), s.reason, s.created_at
  from public.contact_suppressions s where s.contact_id = new.id
  on conflict (workspace_id, address_hash, reason) do nothing;
  perform public.restore_address_suppressions(array[new.id]);
  return null;
end
$$;
-- docs/decisions.md "Suppressions belong to the address": changing the email keeps each address's suppressions
create trigger contacts_readdress_suppressions after update of email on public.contacts
  for each row when (old.email is distinct from new.email)
  execute function public.contacts_readdress_suppressions();

-- The addresses suppressed today, from the contacts that hold them.
do $$
declare
  ws uuid;
begin
  for ws in select distinct workspace_id from public.contact_suppressions loop
    perform public.ensure_privacy_salt(ws);
  end loop;
end
$$;
insert into public.address_suppressions (workspace_id, address_hash, reason, created_at)
select s.workspace_id, public.erased_address_hash(s.workspace_id, c.email), s.reason, s.created_at
from public.contact_suppressions s join public.contacts c on c.id = s.contact_id
on conflict (workspace_id, address_hash, reason) do nothing;
