-- updated_at is kept by the database on every table that has it (docs/decisions.md, "Rules the
-- database keeps"): the saved import mappings had the column but not the trigger, so a writer's
-- own value (or none) stood. (custom_fields keeps it in its own before-write trigger.)
create trigger import_mappings_updated_at before update on public.import_mappings
  for each row execute function public.set_updated_at();

-- Composite workspace links carry the name every other one has (<table>_workspace_id_<column>_fkey),
-- which the cross-workspace tests read to know which key refused a row.
alter table public.broadcasts rename constraint broadcasts_segment_fkey to broadcasts_workspace_id_segment_id_fkey;
alter table public.broadcasts rename constraint broadcasts_topic_fkey to broadcasts_workspace_id_topic_id_fkey;
alter table public.consent_events rename constraint consent_events_topic_fkey to consent_events_workspace_id_topic_id_fkey;

-- Every foreign key has an index led by its columns (docs/decisions.md, "Rules the database
-- keeps"): deleting a topic checks broadcasts, the ledger and the contacts' topic rows by
-- (workspace_id, topic_id). These replace the topic-only indexes of the topics migration.
drop index public.broadcasts_topic_idx;
create index broadcasts_workspace_topic_idx on public.broadcasts (workspace_id, topic_id) where topic_id is not null;
drop index public.consent_events_topic_idx;
create index consent_events_workspace_topic_idx on public.consent_events (workspace_id, topic_id) where topic_id is not null;
create index contact_topics_workspace_topic_idx on public.contact_topics (workspace_id, topic_id);
