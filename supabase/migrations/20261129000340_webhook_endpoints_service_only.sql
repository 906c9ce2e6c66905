-- Webhook endpoints are written through the service path only (docs/decisions.md, "The second factor
-- holds at the database"). Owners and admins kept UPDATE of an endpoint's address, description, event
-- types and enabled state, and DELETE, through PostgREST (…_webhook_secrets_service_only.sql took
-- only the secret): a direct write re-pointed a workspace's deliveries to another URL, or removed an
-- endpoint, without the step-up and the audit row the app requires for webhook changes. The app
-- changes and removes endpoints through asServiceForMember after its checks (an owner or admin,
-- checked in the statement that switches), in the member's transaction with the audit row
-- (lib/webhooks/outbound/write-webhook-endpoint.ts). Members keep reading them (SELECT, Admin+).
-- webhook_endpoints is not in spec 5.4's table.

revoke insert, update, delete on public.webhook_endpoints from authenticated;

-- the policies those grants were decided by: no grant is left for them to decide over
drop policy webhook_endpoints_insert_admins on public.webhook_endpoints;
drop policy webhook_endpoints_update_admins on public.webhook_endpoints;
drop policy webhook_endpoints_delete_admins on public.webhook_endpoints;
