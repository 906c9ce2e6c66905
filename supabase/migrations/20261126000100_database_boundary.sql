-- The database is the boundary (README, Security: members "may reach the database directly
-- through Supabase's REST API with their own JWT"). PostgREST runs each request as
-- `set local role authenticated` with the member's claims, exactly as withUser does, so every
-- privilege granted to `authenticated` below is one a member can use without the dashboard.
-- Least privilege: a member keeps what a screen of the dashboard needs through the user door;
-- a row whose invariant the policies cannot express (memberships, provider connections,
-- outgoing email, webhook ids) is written only by the service door, after the application has
-- checked the caller's role (docs/decisions.md, "The database is the boundary").

-- ---------------------------------------------------------------- workspace_members
-- A membership is granted by accepting an invitation (or by create_workspace for the caller's
-- own new workspace); afterwards only its role changes. Column grant: a member's UPDATE may
-- name `role` and nothing else (the policy workspace_members_update keeps the owner rules).
revoke update on public.workspace_members from authenticated;
grant update (role) on public.workspace_members to authenticated;

-- For everyone, the service included: a membership never moves to another person or
-- workspace, and its joining date never changes (the earliest membership is the default
-- workspace at sign-in). A bug in a service path cannot hand a membership over either.
create or replace function public.keep_membership_identity() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.workspace_id is distinct from old.workspace_id
     or new.user_id is distinct from old.user_id
     or new.created_at is distinct from old.created_at then
    raise exception 'Only the role of a membership can change.' using errcode = '42501';
  end if;
  return new;
end
$$;
create trigger workspace_members_keep_identity
  before update on public.workspace_members
  for each row execute function public.keep_membership_identity();

-- ---------------------------------------------------------------- payproc_connections
-- The account id and live mode come only from Stripe Connect's OAuth answer (the callback,
-- through the service door after checking the caller is an owner or admin). Members keep
-- reading the row, choosing auto_subscribe_purchasers, and disconnecting (Admin+ by policy).
revoke insert, update on public.payproc_connections from authenticated;
grant update (auto_subscribe_purchasers) on public.payproc_connections to authenticated;
drop policy payproc_connections_insert_admins on public.payproc_connections;

-- ---------------------------------------------------------------- email_sends
-- Outgoing email is written only by the system (the send path checks consent and suppression,
-- spec 8.3, and the caller's workspace before it writes through the service door). Members read
-- the log (the outbox page; every column, as a contact's privacy export holds their emails
-- whole); no member inserts, rewrites or deletes a row, so no queued email is re-addressed
-- before the worker sends it.
drop policy email_sends_members_all on public.email_sends;
revoke all on public.email_sends from authenticated;
grant select on public.email_sends to authenticated;
-- SELECT(email_sends): workspace members (spec 5.4: limited to the rows of the caller's workspaces)
create policy email_sends_select_members on public.email_sends for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

-- ---------------------------------------------------------------- ticketing_connections
-- A webhook id names one connection: the delivery endpoint finds the workspace by it, so a
-- copied id could get another workspace's deliveries refused. Unique, and written only by the
-- service door from Eventbrite's answer (as the webhook secret's digest). Admins keep what
-- spec 5.4 gives them on the other columns.
drop index public.ticketing_connections_webhook_idx;
create unique index ticketing_connections_webhook_id_key on public.ticketing_connections (webhook_id)
  where webhook_id is not null;
revoke insert, update on public.ticketing_connections from authenticated;
grant insert (workspace_id, access_token, organization_id, organization_name, auto_subscribe_attendees)
  on public.ticketing_connections to authenticated;
grant update (access_token, organization_id, organization_name, auto_subscribe_attendees)
  on public.ticketing_connections to authenticated;

-- ---------------------------------------------------------------- functions
-- Postgres grants EXECUTE on every new function to PUBLIC, so anon and authenticated could call
-- each function of schema public through PostgREST's /rpc. Now nobody executes a function of
-- schema public unless a migration grants it by name. Trigger functions need no grant (Postgres
-- checks EXECUTE when a trigger is created, not when it fires). Every security definer function
-- granted to members checks its caller itself (auth.uid(), user_workspace_ids,
-- has_workspace_role). The functions earlier migrations already closed (check_rate_limit, the
-- counters, emit_webhook_events, ...) keep their grants.
revoke execute on all functions in schema public from public, anon, authenticated;
alter default privileges revoke execute on functions from public;
-- the job engine creates its own functions in schema pgboss when it starts (as its tables:
-- …_automations_inbox.sql); the service runs the jobs
alter default privileges in schema pgboss grant execute on functions to service_role;
grant execute on all functions in schema pgboss to service_role;
-- used by the policies
grant execute on function public.user_workspace_ids(text[]), public.is_workspace_member(uuid),
  public.has_workspace_role(uuid, text[]) to authenticated, service_role;
-- called by the dashboard as the member (each checks the caller's workspace and role)
grant execute on function public.create_workspace(text), public.search_contacts(uuid, text[]),
  public.erased_address_hash(uuid, text), public.replay_webhook_delivery(uuid),
  public.send_webhook_test_event(uuid) to authenticated;
-- plain expressions (no table access): the contacts list's status, a webhook's contact payload
grant execute on function public.contact_email_status(boolean, timestamptz, boolean)
  to authenticated, service_role;
grant execute on function public.webhook_contact_data(public.contacts) to service_role;

-- ---------------------------------------------------------------- api_keys
-- A key is issued with a digest the server made from a fresh random key and is revoked for
-- good (spec 5.2 keys): both through the service door, after checking the caller is an owner
-- or admin. Members read the list the settings page shows, without the digests. For everyone:
-- a key's digest and workspace never change, and a revoked key stays revoked (the key cache
-- and the audit trail rely on both).
drop policy api_keys_insert_admins on public.api_keys;
drop policy api_keys_update_admins on public.api_keys;
drop policy api_keys_delete_admins on public.api_keys;
revoke all on public.api_keys from authenticated;
grant select (id, workspace_id, name, created_at, last_used_at, revoked_at) on public.api_keys to authenticated;

create or replace function public.keep_api_key_identity() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.key_hash is distinct from old.key_hash
     or new.workspace_id is distinct from old.workspace_id
     or (old.revoked_at is not null and new.revoked_at is distinct from old.revoked_at) then
    raise exception 'An API key keeps its digest and workspace, and stays revoked.' using errcode = '42501';
  end if;
  return new;
end
$$;
revoke execute on function public.keep_api_key_identity() from public;
create trigger api_keys_keep_identity
  before update on public.api_keys
  for each row execute function public.keep_api_key_identity();

-- ---------------------------------------------------------------- user_profiles, workspaces
-- A profile is created by the system at sign-up (or on accepting an invitation) with the
-- account's confirmed address; the members list and the contact timeline show that address
-- as who someone is. A member edits their name and time zone (the profile page), never the
-- address, id or dates, so nobody shows up in a workspace under another person's address.
revoke insert, update on public.user_profiles from authenticated;
drop policy user_profiles_insert on public.user_profiles;
grant update (first_name, last_name, timezone) on public.user_profiles to authenticated;
-- Admin+ change the workspace's name and email settings (the settings pages), nothing else
revoke update on public.workspaces from authenticated;
grant update (name, tracking_url, subscribe_footer_enabled, subscribe_footer_message, subscribe_footer_link_text)
  on public.workspaces to authenticated;
