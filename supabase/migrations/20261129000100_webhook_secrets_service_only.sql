-- Outbound webhook signing secrets are written by the service only (docs/decisions.md, "The database
-- is the boundary"; "One delivery's failure is its own"). Owners and admins held table-level INSERT
-- and UPDATE on webhook_endpoints, so through PostgREST they could store a secret_ciphertext the
-- worker cannot open. Endpoints are now created and their secrets rotated by the app through the
-- service path after the member check (lib/webhooks/outbound/write-webhook-secret.ts); members keep
-- UPDATE of the columns the settings page changes, and DELETE.

revoke insert, update on public.webhook_endpoints from authenticated;

-- UPDATE(webhook_endpoints): Admin+ (policy webhook_endpoints_update_admins) change an endpoint's
-- address, description, event types and enabled state (spec 6.1), never its secret or author
grant update (url, description, event_types, enabled, failing_since, disabled_reason, updated_at)
  on public.webhook_endpoints to authenticated;
