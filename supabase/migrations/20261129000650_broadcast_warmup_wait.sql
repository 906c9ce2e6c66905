-- A broadcast whose sending domain spent today's warm-up cap (docs/decisions.md, "Sending domains and
-- warm-up") waits, 'sending', for the next UTC day: `warmup_until` says until when, for its page; the
-- next run clears it once it claims a batch.
alter table public.broadcasts add column warmup_until timestamptz;
