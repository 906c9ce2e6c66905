-- Issue 5, item 7: a broadcast keeps the plain-text body it was composed in beside the
-- HTML made from it, so every email carries both parts. Beyond the spec; nullable default.
alter table public.broadcasts add column body_text text not null default '';
