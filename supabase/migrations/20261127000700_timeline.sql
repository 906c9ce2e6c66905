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
