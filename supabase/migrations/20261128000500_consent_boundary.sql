-- Consent is written only through the app's consent door (docs/decisions.md, "The database is the
-- boundary"; spec 3.3, 4.9): a member reaching the tables directly (PostgREST, their own JWT) must not
-- subscribe, re-subscribe or unsuppress a contact without the consent rules and the ledger. The app
-- writes consent as service_role after checking the member (lib/consent/consent-door.ts); a member
-- can become neither service_role nor the owner of a security definer function.

-- The contact's consent state (is_subscribed, opt_in_*, unsubscribed_at), its hard-suppression flag
-- (email_suppressed, kept by contact_suppressions_flag), its portal link (portal_token) and its
-- creator (created_by) are not the caller's to write. A member's insert is stored unsubscribed
-- (anything else is refused) with a fresh portal token and themself as creator; a member's update
-- may not change any of them. Runs after contacts_before_write (names in order), which fills created_by.
create or replace function public.contacts_guard_consent() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if new.is_subscribed or new.opt_in_timestamp is not null or new.opt_in_source is not null
       or new.opt_in_ip is not null or new.unsubscribed_at is not null or new.email_suppressed
       or new.created_by is distinct from (select auth.uid())
    then
      raise exception 'Consent is changed only through the consent flows (spec 3.3).' using errcode = '42501';
    end if;
    new.portal_token := pg_catalog.gen_random_uuid();
  elsif (new.is_subscribed, new.opt_in_timestamp, new.opt_in_source, new.opt_in_ip, new.unsubscribed_at,
         new.email_suppressed, new.portal_token, new.created_by)
        is distinct from
        (old.is_subscribed, old.opt_in_timestamp, old.opt_in_source, old.opt_in_ip, old.unsubscribed_at,
         old.email_suppressed, old.portal_token, old.created_by)
  then
    raise exception 'Consent is changed only through the consent flows (spec 3.3).' using errcode = '42501';
  end if;
  return new;
end
$$;
-- Spec 3.3/4.9: only the consent door (service_role) writes consent; the roles PostgREST gives callers cannot
create trigger contacts_guard_consent before insert or update on public.contacts
  for each row when (current_user in ('authenticated', 'anon'))
  execute function public.contacts_guard_consent();

-- DELETE(contact_suppressions): spec 5.4 workspace members, 'manual' only (docs/decisions.md, "The
-- database is the boundary"): removing an 'unsubscribe' or 'bounce' suppression re-subscribes or
-- unblocks a contact, which the consent flows do through the consent door with a ledger entry; a
-- 'complaint' is never removed (spec 3.3, keep_complaint_suppressions)
drop policy contact_suppressions_delete_members on public.contact_suppressions;
create policy contact_suppressions_delete_members on public.contact_suppressions for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids()) and reason = 'manual');
