-- Segments, continued (docs/decisions.md, "Segments"): attendance and automations that keep to a
-- segment.

-- Attendance: when the registrant was checked in at the event (null: not attended). Written by
-- the ticketing sync (Eventbrite's `checked_in`) and by a member's check-in on the event's page,
-- both as the service: event_registrations stay INSERT/UPDATE system only (spec 5.4), so members
-- gain no write on the column.
alter table public.event_registrations add column checked_in_at timestamptz;
-- the contact timeline's check-in entries, read per contact by time (docs/decisions.md,
-- "Contact timeline"), and the event_attended condition of one event
create index event_registrations_contact_checked_in_idx on public.event_registrations
  (contact_id, checked_in_at desc) where checked_in_at is not null;
create index event_registrations_event_checked_in_idx on public.event_registrations
  (workspace_id, event_id, contact_id) where checked_in_at is not null;

-- An automation may keep to a segment: its action runs only for contacts that match the segment
-- when it fires, else the run is recorded as 'skipped'. The pair key keeps the segment in the
-- automation's own workspace whoever writes the row. Deleting a segment an automation uses is
-- refused (NO ACTION, checked at the end of the statement, so deleting the whole workspace still
-- cascades): clearing it instead would widen the automation to every contact without a word.
alter table public.automations add column segment_id uuid;
alter table public.automations add constraint automations_workspace_id_segment_id_fkey
  foreign key (workspace_id, segment_id) references public.segments (workspace_id, id);
create index automations_segment_idx on public.automations (workspace_id, segment_id)
  where segment_id is not null;
