-- Campaign emails leave in batch calls (docs/decisions.md, "Campaign emails in batches"): the delivery
-- job forms chunks of the queued rows of every campaign, and the sweep asks whether any wait. Queued
-- rows are few at any moment; this finds them without reading the campaigns' sent rows.
create index email_sends_campaign_queued_idx on public.email_sends (id)
  where status = 'queued' and campaign_enrollment_id is not null;
