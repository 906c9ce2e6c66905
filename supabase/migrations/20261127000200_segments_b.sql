-- Segments at a million contacts (npm run bench -- segments, docs/decisions.md "Segments"): the
-- consent index of the first migration is not used (an expression column allows no index-only
-- scan, and a plain scan of a third of the contacts costs more than reading them all). The
-- marketing-subscribed contacts (spec 3.3 "subscribed") as a partial index of their ids instead:
-- a count of them, or their join with a tag's holders, is an index-only scan.
drop index if exists public.contacts_workspace_consent_idx;
create index contacts_workspace_subscribed_idx on public.contacts (workspace_id, id)
  where is_subscribed and unsubscribed_at is null;
