-- Issue 5, item 8 (beyond the spec): the consent ledger is append-only. RLS already gives
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

-- Consent ledger: no entry is changed, none removed while its contact exists.
create trigger consent_events_append_only
  before update or delete on public.consent_events
  for each row execute function public.keep_consent_events();
