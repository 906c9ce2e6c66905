-- Outbound webhooks (docs/decisions.md, "Outbound webhooks"): the merge of two contacts emits
-- `contact.merged` beside the `contact.updated` of A and the `contact.deleted` of B that the
-- contacts triggers write. The merge is a flow, not a row change a trigger can name: it emits
-- the event itself, as the service, in the merge's transaction, through the one function that
-- shapes every delivery. Members still may not call it.
grant execute on function public.emit_webhook_events(text, jsonb) to service_role;
