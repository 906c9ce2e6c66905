-- The contact timeline (docs/decisions.md, "Contact timeline"): one keyset-paged feed of a
-- contact's notes, consent, form submissions, registrations, purchases, emails and audited
-- changes. Each kind reads its newest rows after a cursor through an index on
-- (contact_id, time); notes, consent_events and transactions have one already.

create index form_submissions_contact_created_idx
  on public.form_submissions (contact_id, created_at desc);
create index event_registrations_contact_created_idx
  on public.event_registrations (contact_id, created_at desc);
create index email_sends_contact_created_idx
  on public.email_sends (contact_id, created_at desc);

-- merges and source changes of one contact (the audit log is otherwise read by workspace)
create index audit_log_contact_changes_idx
  on public.audit_log (target_id, created_at desc, id desc)
  where target_type = 'contact' and action in ('contact.merged', 'contact.source_changed');

-- A contact's email events by time: email_events carry their send's contact, kept by the
-- database (set when an event is stored, moved with the send when a merge moves it, null when
-- the contact is deleted), so the timeline reads them through one index like every other kind
-- instead of visiting each of the contact's sends.
alter table public.email_events add column contact_id uuid;
alter table public.email_events
  add constraint email_events_workspace_id_contact_id_fkey foreign key (workspace_id, contact_id)
    references public.contacts (workspace_id, id) on delete set null (contact_id);
update public.email_events e set contact_id = s.contact_id
  from public.email_sends s
  where s.id = e.email_send_id and s.workspace_id = e.workspace_id and s.contact_id is not null;
-- (contact_id, workspace_id) lead it: the foreign key's index as well (rls-coverage)
create index email_events_contact_occurred_idx
  on public.email_events (contact_id, workspace_id, occurred_at desc) where contact_id is not null;

create or replace function public.email_events_set_contact() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- the writer (the system) names none; one it names must be of the workspace (the key above)
  if new.contact_id is null then
    select s.contact_id into new.contact_id from public.email_sends s
    where s.id = new.email_send_id and s.workspace_id = new.workspace_id;
  end if;
  return new;
end
$$;
create trigger email_events_contact before insert on public.email_events
  for each row execute function public.email_events_set_contact();

-- a merge moves a send to another contact: its events follow (only the send's own events, in
-- its workspace; security definer as the other email_events triggers, whoever moves the send)
create or replace function public.email_sends_move_events() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.email_events set contact_id = new.contact_id
  where email_send_id = new.id and workspace_id = new.workspace_id;
  return null;
end
$$;
create trigger email_sends_contact_moved after update of contact_id on public.email_sends
  for each row when (old.contact_id is distinct from new.contact_id)
  execute function public.email_sends_move_events();
revoke execute on function public.email_events_set_contact(), public.email_sends_move_events() from public;
