-- A broadcast's rows still waiting for the provider, found without reading the rest (docs/performance.md,
-- "Queueing a broadcast"): each claim first takes back this run's or a dead run's 'queued' rows, and the
-- last one asks whether any are left. Through (broadcast_id, workspace_id) both read every row of the
-- broadcast, sent ones included, once per batch: claiming 1,000,000 recipients cost 1,278 s of database
-- time, growing with each batch. Queued rows are few at any moment (a claim's worth per run).
create index email_sends_broadcast_queued_idx on public.email_sends (broadcast_id, id) where status = 'queued';
