-- A broadcast's email in other languages (docs/decisions.md, "Recipient languages"): by shipped language
-- code, {"es": {"subject", "body", "body_text", "body_html"}} (body: as the member wrote it, in the
-- broadcast's format; the other two as sent). A contact whose locale is one of them gets that email,
-- everyone else the broadcast's own. Members read it with the rest of the row; only the service door
-- writes broadcasts (…_broadcast_boundary.sql).
alter table public.broadcasts
  add column translations jsonb not null default '{}'::jsonb,
  add constraint broadcasts_translations_object check (jsonb_typeof(translations) = 'object');
