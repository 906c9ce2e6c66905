-- Row-level security on every table (spec 5.4: "every table is limited to the rows of the
-- caller's workspaces"; tables the spec's matrix does not list: members read and write their
-- own workspace's rows, Admin+ for settings-like tables). Every policy is written out here,
-- one per table and operation, with the rule it implements above it.
-- Grants: revoke everything from anon and authenticated, then grant back exactly what
-- the policies below decide over. service_role bypasses RLS (webhooks, public
-- endpoints, sync jobs and the backfill script act through it).
-- `workspace_id in (select public.user_workspace_ids(...))` runs the function once per statement.

-- ---------------------------------------------------------------- platform
alter table public.workspaces enable row level security;
alter table public.user_profiles enable row level security;
alter table public.workspace_members enable row level security;
revoke all on public.workspaces, public.user_profiles, public.workspace_members from anon, authenticated;
grant select, update, delete on public.workspaces to authenticated;
grant select, insert, update on public.user_profiles to authenticated;
-- no INSERT on workspace_members for members (invitations only: see workspace_members below)
grant select, update, delete on public.workspace_members to authenticated;
grant all on public.workspaces, public.user_profiles, public.workspace_members to service_role;

-- SELECT(workspaces): members of the workspace
create policy workspaces_select on public.workspaces for select to authenticated
  using (id in (select public.user_workspace_ids()));
-- UPDATE(workspaces): Admin+ (name, footer settings, tracking URL)
create policy workspaces_update on public.workspaces for update to authenticated
  using (id in (select public.user_workspace_ids(array['owner', 'admin'])))
  with check (id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- DELETE(workspaces): owners only. INSERT happens at sign-up, as the system.
create policy workspaces_delete on public.workspaces for delete to authenticated
  using (id in (select public.user_workspace_ids(array['owner'])));

-- SELECT(user_profiles): yourself and the members of your workspaces
create policy user_profiles_select on public.user_profiles for select to authenticated
  using (
    id = (select auth.uid())
    or exists (
      select 1 from public.workspace_members m
      where m.user_id = user_profiles.id and m.workspace_id in (select public.user_workspace_ids())
    )
  );
-- INSERT(user_profiles): only your own profile
create policy user_profiles_insert on public.user_profiles for insert to authenticated
  with check (id = (select auth.uid()));
-- UPDATE(user_profiles): only your own profile
create policy user_profiles_update on public.user_profiles for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));

-- SELECT(workspace_members): members see who else is in their workspaces
create policy workspace_members_select on public.workspace_members for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- INSERT(workspace_members): nobody but the system (invitations instead of direct adds: nobody is put into a
-- workspace without consent). A membership row is written only when the invited person accepts
-- an invitation sent to their verified address, and by create_workspace() for the caller's own
-- new workspace: no policy, and no INSERT grant above.
-- UPDATE(workspace_members): Admin+; only owners may change or make owners
create policy workspace_members_update on public.workspace_members for update to authenticated
  using (
    workspace_id in (select public.user_workspace_ids(array['owner', 'admin']))
    and (role <> 'owner' or workspace_id in (select public.user_workspace_ids(array['owner'])))
  )
  with check (
    workspace_id in (select public.user_workspace_ids(array['owner', 'admin']))
    and (role <> 'owner' or workspace_id in (select public.user_workspace_ids(array['owner'])))
  );
-- DELETE(workspace_members): Admin+ remove members (an admin cannot remove an owner);
-- anyone may leave (the last owner cannot: trigger keep_one_owner)
create policy workspace_members_delete on public.workspace_members for delete to authenticated
  using (
    user_id = (select auth.uid())
    or (
      workspace_id in (select public.user_workspace_ids(array['owner', 'admin']))
      and (role <> 'owner' or workspace_id in (select public.user_workspace_ids(array['owner'])))
    )
  );

-- account_tokens (sign-up and reset links): no policies; only the system (service_role, which
-- bypasses RLS) issues and spends sign-up and password-reset links; no member reads or writes them
alter table public.account_tokens enable row level security;
revoke all on public.account_tokens from anon, authenticated;
grant all on public.account_tokens to service_role;

-- workspace_invitations (docs/decisions.md, "Invitations instead of direct adds"): SELECT, INSERT, UPDATE
-- Admin+; accepting is the system's write
alter table public.workspace_invitations enable row level security;
revoke all on public.workspace_invitations from anon, authenticated;
grant select, insert, update on public.workspace_invitations to authenticated;
grant all on public.workspace_invitations to service_role;
-- SELECT(workspace_invitations): Admin+ of the workspace (the members page lists them)
create policy workspace_invitations_select on public.workspace_invitations for select to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- INSERT(workspace_invitations): Admin+ invite, as themselves; only owners invite owners
create policy workspace_invitations_insert on public.workspace_invitations for insert to authenticated
  with check (
    workspace_id in (select public.user_workspace_ids(array['owner', 'admin']))
    and (role <> 'owner' or workspace_id in (select public.user_workspace_ids(array['owner'])))
    and invited_by = (select auth.uid())
    and accepted_at is null and accepted_by is null
  );
-- UPDATE(workspace_invitations): Admin+ resend or revoke an open invitation (owner
-- invitations: owners only); accepting is the system's, never a member's, write
create policy workspace_invitations_update on public.workspace_invitations for update to authenticated
  using (
    workspace_id in (select public.user_workspace_ids(array['owner', 'admin']))
    and (role <> 'owner' or workspace_id in (select public.user_workspace_ids(array['owner'])))
    and accepted_at is null
  )
  with check (
    workspace_id in (select public.user_workspace_ids(array['owner', 'admin']))
    and (role <> 'owner' or workspace_id in (select public.user_workspace_ids(array['owner'])))
    and accepted_at is null and accepted_by is null
  );

-- ---------------------------------------------------------------- member-owned data
-- contacts (spec 5.4) and the tables spec 5.4 does not list: members of the workspace
-- select, insert, update and delete their workspace's rows.

alter table public.contacts enable row level security;
revoke all on public.contacts from anon, authenticated;
grant select, insert, update, delete on public.contacts to authenticated;
grant all on public.contacts to service_role;
-- SELECT/INSERT/UPDATE/DELETE(contacts): spec 5.4 contacts: workspace members select, insert, update and delete
create policy contacts_members_all on public.contacts for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.tags enable row level security;
revoke all on public.tags from anon, authenticated;
grant select, insert, update, delete on public.tags to authenticated;
grant all on public.tags to service_role;
-- SELECT/INSERT/UPDATE/DELETE(tags): spec 2.10 tags; not in the spec 5.4 matrix: workspace members
create policy tags_members_all on public.tags for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.contact_tags enable row level security;
revoke all on public.contact_tags from anon, authenticated;
grant select, insert, update, delete on public.contact_tags to authenticated;
grant all on public.contact_tags to service_role;
-- SELECT/INSERT/UPDATE/DELETE(contact_tags): spec 2.4.2 tags of a contact; not in the spec 5.4 matrix: workspace members
create policy contact_tags_members_all on public.contact_tags for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.products enable row level security;
revoke all on public.products from anon, authenticated;
grant select, insert, update, delete on public.products to authenticated;
grant all on public.products to service_role;
-- SELECT/INSERT/UPDATE/DELETE(products): spec 2.10 products; not in the spec 5.4 matrix: workspace members
create policy products_members_all on public.products for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.tasks enable row level security;
revoke all on public.tasks from anon, authenticated;
grant select, insert, update, delete on public.tasks to authenticated;
grant all on public.tasks to service_role;
-- SELECT/INSERT/UPDATE/DELETE(tasks): spec 2.10 / 3.6 tasks; not in the spec 5.4 matrix: workspace members
create policy tasks_members_all on public.tasks for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.notes enable row level security;
revoke all on public.notes from anon, authenticated;
grant select, insert, update, delete on public.notes to authenticated;
grant all on public.notes to service_role;
-- SELECT/INSERT/UPDATE/DELETE(notes): spec 2.10 notes; not in the spec 5.4 matrix: workspace members
create policy notes_members_all on public.notes for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.companies enable row level security;
revoke all on public.companies from anon, authenticated;
grant select, insert, update, delete on public.companies to authenticated;
grant all on public.companies to service_role;
-- SELECT/INSERT/UPDATE/DELETE(companies): spec 2.4.2 companies; not in the spec 5.4 matrix: workspace members
create policy companies_members_all on public.companies for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.company_contacts enable row level security;
revoke all on public.company_contacts from anon, authenticated;
grant select, insert, update, delete on public.company_contacts to authenticated;
grant all on public.company_contacts to service_role;
-- SELECT/INSERT/UPDATE/DELETE(company_contacts): spec 2.4.2 companies of a contact; not in the spec 5.4 matrix: workspace members
create policy company_contacts_members_all on public.company_contacts for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.deals enable row level security;
revoke all on public.deals from anon, authenticated;
grant select, insert, update, delete on public.deals to authenticated;
grant all on public.deals to service_role;
-- SELECT/INSERT/UPDATE/DELETE(deals): spec 2.4.2 deals; not in the spec 5.4 matrix: workspace members
create policy deals_members_all on public.deals for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.deal_payments enable row level security;
revoke all on public.deal_payments from anon, authenticated;
grant select, insert, update, delete on public.deal_payments to authenticated;
grant all on public.deal_payments to service_role;
-- SELECT/INSERT/UPDATE/DELETE(deal_payments): spec 2.10 deal_payments; not in the spec 5.4 matrix: workspace members
create policy deal_payments_members_all on public.deal_payments for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.appointments enable row level security;
revoke all on public.appointments from anon, authenticated;
grant select, insert, update, delete on public.appointments to authenticated;
grant all on public.appointments to service_role;
-- SELECT/INSERT/UPDATE/DELETE(appointments): spec 2.4.2 appointments; not in the spec 5.4 matrix: workspace members
create policy appointments_members_all on public.appointments for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.appointment_external_attendees enable row level security;
revoke all on public.appointment_external_attendees from anon, authenticated;
grant select, insert, update, delete on public.appointment_external_attendees to authenticated;
grant all on public.appointment_external_attendees to service_role;
-- SELECT/INSERT/UPDATE/DELETE(appointment_external_attendees): spec 2.4.2 appointments of a contact; not in the spec 5.4 matrix: workspace members
create policy appointment_external_attendees_members_all on public.appointment_external_attendees for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.agreements enable row level security;
revoke all on public.agreements from anon, authenticated;
grant select, insert, update, delete on public.agreements to authenticated;
grant all on public.agreements to service_role;
-- SELECT/INSERT/UPDATE/DELETE(agreements): spec 2.4.2 agreements; not in the spec 5.4 matrix: workspace members
create policy agreements_members_all on public.agreements for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.agreement_contacts enable row level security;
revoke all on public.agreement_contacts from anon, authenticated;
grant select, insert, update, delete on public.agreement_contacts to authenticated;
grant all on public.agreement_contacts to service_role;
-- SELECT/INSERT/UPDATE/DELETE(agreement_contacts): spec 2.4.2 agreements of a contact; not in the spec 5.4 matrix: workspace members
create policy agreement_contacts_members_all on public.agreement_contacts for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.campaigns enable row level security;
revoke all on public.campaigns from anon, authenticated;
grant select, insert, update, delete on public.campaigns to authenticated;
grant all on public.campaigns to service_role;
-- SELECT/INSERT/UPDATE/DELETE(campaigns): spec 2.4.2 campaigns; not in the spec 5.4 matrix: workspace members
create policy campaigns_members_all on public.campaigns for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.campaign_enrollments enable row level security;
revoke all on public.campaign_enrollments from anon, authenticated;
grant select, insert, update, delete on public.campaign_enrollments to authenticated;
grant all on public.campaign_enrollments to service_role;
-- SELECT/INSERT/UPDATE/DELETE(campaign_enrollments): spec 2.4.2 campaign enrollments; not in the spec 5.4 matrix: workspace members
create policy campaign_enrollments_members_all on public.campaign_enrollments for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.broadcasts enable row level security;
revoke all on public.broadcasts from anon, authenticated;
grant select, insert, update, delete on public.broadcasts to authenticated;
grant all on public.broadcasts to service_role;
-- SELECT/INSERT/UPDATE/DELETE(broadcasts): spec 6.4 outgoing email (broadcasts); not in the spec 5.4 matrix: workspace members
create policy broadcasts_members_all on public.broadcasts for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

alter table public.email_sends enable row level security;
revoke all on public.email_sends from anon, authenticated;
grant select, insert, update, delete on public.email_sends to authenticated;
grant all on public.email_sends to service_role;
-- SELECT/INSERT/UPDATE/DELETE(email_sends): spec 2.4.2 email sends; not in the spec 5.4 matrix: workspace members
create policy email_sends_members_all on public.email_sends for all to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));

-- ---------------------------------------------------------------- spec 5.4 matrix
-- Each table: revoke everything from anon and authenticated, grant the system everything,
-- grant authenticated what its policies decide over, then one policy per operation.

-- forms (spec 5.4): SELECT members; INSERT, UPDATE, DELETE Admin+
alter table public.forms enable row level security;
revoke all on public.forms from anon, authenticated;
grant all on public.forms to service_role;
grant select, insert, update, delete on public.forms to authenticated;
-- SELECT(forms): spec 5.4 forms: workspace members
create policy forms_select_members on public.forms for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- INSERT(forms): spec 5.4 forms: Admin+
create policy forms_insert_admins on public.forms for insert to authenticated
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- UPDATE(forms): spec 5.4 forms: Admin+
create policy forms_update_admins on public.forms for update to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])))
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- DELETE(forms): spec 5.4 forms: Admin+
create policy forms_delete_admins on public.forms for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));

-- form_submissions (spec 5.4): SELECT members; INSERT system only; UPDATE none; DELETE Admin+
alter table public.form_submissions enable row level security;
revoke all on public.form_submissions from anon, authenticated;
grant all on public.form_submissions to service_role;
grant select, delete on public.form_submissions to authenticated;
-- SELECT(form_submissions): spec 5.4 form_submissions: workspace members
create policy form_submissions_select_members on public.form_submissions for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- DELETE(form_submissions): spec 5.4 form_submissions: Admin+ (INSERT system only, UPDATE none: no policy)
create policy form_submissions_delete_admins on public.form_submissions for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));

-- pending_form_submissions (spec 5.4): SELECT members; INSERT system only; UPDATE none; DELETE members
alter table public.pending_form_submissions enable row level security;
revoke all on public.pending_form_submissions from anon, authenticated;
grant all on public.pending_form_submissions to service_role;
grant select, delete on public.pending_form_submissions to authenticated;
-- SELECT(pending_form_submissions): spec 5.4 pending_form_submissions: workspace members
create policy pending_form_submissions_select_members on public.pending_form_submissions for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- DELETE(pending_form_submissions): spec 5.4 pending_form_submissions: workspace members (INSERT system only, UPDATE none: no policy)
create policy pending_form_submissions_delete_members on public.pending_form_submissions for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

-- transactions (spec 5.4): SELECT, INSERT, DELETE members; UPDATE members, of status and amount_refunded only
alter table public.transactions enable row level security;
revoke all on public.transactions from anon, authenticated;
grant all on public.transactions to service_role;
grant select, insert, delete on public.transactions to authenticated;
grant update (status, amount_refunded) on public.transactions to authenticated;
-- SELECT(transactions): spec 5.4 transactions: workspace members
create policy transactions_select_members on public.transactions for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- INSERT(transactions): spec 5.4 transactions: workspace members
create policy transactions_insert_members on public.transactions for insert to authenticated
  with check (workspace_id in (select public.user_workspace_ids()));
-- UPDATE(transactions): spec 5.4 transactions: workspace members, of status and amount_refunded (the column grant above)
create policy transactions_update_members on public.transactions for update to authenticated
  using (workspace_id in (select public.user_workspace_ids()))
  with check (workspace_id in (select public.user_workspace_ids()));
-- DELETE(transactions): spec 5.4 transactions: workspace members
create policy transactions_delete_members on public.transactions for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

-- contact_suppressions (spec 5.4): SELECT, INSERT, DELETE members; UPDATE none
alter table public.contact_suppressions enable row level security;
revoke all on public.contact_suppressions from anon, authenticated;
grant all on public.contact_suppressions to service_role;
grant select, insert, delete on public.contact_suppressions to authenticated;
-- SELECT(contact_suppressions): spec 5.4 contact_suppressions: workspace members
create policy contact_suppressions_select_members on public.contact_suppressions for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- INSERT(contact_suppressions): spec 5.4 contact_suppressions: workspace members; reason 'manual'
-- only (spec 2.6; docs/decisions.md, "Least-privilege RLS"): 'bounce' and 'complaint' come from the
-- email provider and 'unsubscribe' from the unsubscribe flows, all as the system (a complaint
-- suppression can never be removed, so a member must not be able to forge one)
create policy contact_suppressions_insert_members on public.contact_suppressions for insert to authenticated
  with check (workspace_id in (select public.user_workspace_ids()) and reason = 'manual');
-- DELETE(contact_suppressions): spec 5.4 workspace members, never a complaint (spec 3.3; the
-- trigger keep_complaint_suppressions holds the same line for the system)
create policy contact_suppressions_delete_members on public.contact_suppressions for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids()) and reason <> 'complaint');

-- events (spec 5.4): SELECT members; INSERT, UPDATE, DELETE Admin+
alter table public.events enable row level security;
revoke all on public.events from anon, authenticated;
grant all on public.events to service_role;
grant select, insert, update, delete on public.events to authenticated;
-- SELECT(events): spec 5.4 events: workspace members
create policy events_select_members on public.events for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- INSERT(events): spec 5.4 events: Admin+
create policy events_insert_admins on public.events for insert to authenticated
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- UPDATE(events): spec 5.4 events: Admin+
create policy events_update_admins on public.events for update to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])))
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- DELETE(events): spec 5.4 events: Admin+
create policy events_delete_admins on public.events for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));

-- event_registrations (spec 5.4): SELECT members; INSERT, UPDATE system only; DELETE Admin+
alter table public.event_registrations enable row level security;
revoke all on public.event_registrations from anon, authenticated;
grant all on public.event_registrations to service_role;
grant select, delete on public.event_registrations to authenticated;
-- SELECT(event_registrations): spec 5.4 event_registrations: workspace members
create policy event_registrations_select_members on public.event_registrations for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- DELETE(event_registrations): spec 5.4 event_registrations: Admin+ (INSERT, UPDATE system only: no policy)
create policy event_registrations_delete_admins on public.event_registrations for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));

-- ticketing_connections (spec 5.4 ticketing_connections): SELECT members; INSERT, UPDATE, DELETE Admin+
alter table public.ticketing_connections enable row level security;
revoke all on public.ticketing_connections from anon, authenticated;
grant all on public.ticketing_connections to service_role;
grant insert, update, delete on public.ticketing_connections to authenticated;
-- Least privilege (docs/decisions.md, "Least-privilege RLS"): the Eventbrite access token (a lasting
-- credential of the organisation's Eventbrite account) and the webhook secret's digest are readable by the
-- service only. Members read every other column (the settings page); writing a token is
-- harmless, reading it is not. The flows that read the token (connect, disconnect, sync,
-- delivery processing) run through the service door after checking the member's role.
grant select (id, workspace_id, organization_id, organization_name, webhook_id,
              auto_subscribe_attendees, connected_at, updated_at, webhook_secured)
  on public.ticketing_connections to authenticated;
-- SELECT(ticketing_connections): spec 5.4 ticketing_connections: workspace members
create policy ticketing_connections_select_members on public.ticketing_connections for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- INSERT(ticketing_connections): spec 5.4 ticketing_connections: Admin+
create policy ticketing_connections_insert_admins on public.ticketing_connections for insert to authenticated
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- UPDATE(ticketing_connections): spec 5.4 ticketing_connections: Admin+
create policy ticketing_connections_update_admins on public.ticketing_connections for update to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])))
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- DELETE(ticketing_connections): spec 5.4 ticketing_connections: Admin+
create policy ticketing_connections_delete_admins on public.ticketing_connections for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));

-- payproc_connections (beyond the spec 5.4 matrix, as ticketing_connections): SELECT members; INSERT, UPDATE, DELETE Admin+
alter table public.payproc_connections enable row level security;
revoke all on public.payproc_connections from anon, authenticated;
grant all on public.payproc_connections to service_role;
grant select, insert, update, delete on public.payproc_connections to authenticated;
-- SELECT(payproc_connections): beyond the spec 5.4 matrix, as ticketing_connections: workspace members
create policy payproc_connections_select_members on public.payproc_connections for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- INSERT(payproc_connections): beyond the spec 5.4 matrix, as ticketing_connections: Admin+
create policy payproc_connections_insert_admins on public.payproc_connections for insert to authenticated
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- UPDATE(payproc_connections): beyond the spec 5.4 matrix, as ticketing_connections: Admin+
create policy payproc_connections_update_admins on public.payproc_connections for update to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])))
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- DELETE(payproc_connections): beyond the spec 5.4 matrix, as ticketing_connections: Admin+
create policy payproc_connections_delete_admins on public.payproc_connections for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));

-- api_keys (beyond the spec 5.4 matrix (spec 5.2 keys), as ticketing_connections): SELECT members; INSERT, UPDATE, DELETE Admin+
alter table public.api_keys enable row level security;
revoke all on public.api_keys from anon, authenticated;
grant all on public.api_keys to service_role;
grant select, insert, update, delete on public.api_keys to authenticated;
-- SELECT(api_keys): beyond the spec 5.4 matrix (spec 5.2 keys), as ticketing_connections: workspace members
create policy api_keys_select_members on public.api_keys for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- INSERT(api_keys): beyond the spec 5.4 matrix (spec 5.2 keys), as ticketing_connections: Admin+
create policy api_keys_insert_admins on public.api_keys for insert to authenticated
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- UPDATE(api_keys): beyond the spec 5.4 matrix (spec 5.2 keys), as ticketing_connections: Admin+
create policy api_keys_update_admins on public.api_keys for update to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])))
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- DELETE(api_keys): beyond the spec 5.4 matrix (spec 5.2 keys), as ticketing_connections: Admin+
create policy api_keys_delete_admins on public.api_keys for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));

-- automations (beyond the spec 5.4 matrix (spec 6.2), as ticketing_connections): SELECT members; INSERT, UPDATE, DELETE Admin+
alter table public.automations enable row level security;
revoke all on public.automations from anon, authenticated;
grant all on public.automations to service_role;
grant select, insert, update, delete on public.automations to authenticated;
-- SELECT(automations): beyond the spec 5.4 matrix (spec 6.2), as ticketing_connections: workspace members
create policy automations_select_members on public.automations for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- INSERT(automations): beyond the spec 5.4 matrix (spec 6.2), as ticketing_connections: Admin+
create policy automations_insert_admins on public.automations for insert to authenticated
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- UPDATE(automations): beyond the spec 5.4 matrix (spec 6.2), as ticketing_connections: Admin+
create policy automations_update_admins on public.automations for update to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])))
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- DELETE(automations): beyond the spec 5.4 matrix (spec 6.2), as ticketing_connections: Admin+
create policy automations_delete_admins on public.automations for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));

-- automation_runs (beyond the spec 5.4 matrix, spec 6.2): SELECT members; written by the system
alter table public.automation_runs enable row level security;
revoke all on public.automation_runs from anon, authenticated;
grant all on public.automation_runs to service_role;
grant select on public.automation_runs to authenticated;
-- SELECT(automation_runs): beyond the spec 5.4 matrix (spec 6.2 runs): workspace members
create policy automation_runs_select_members on public.automation_runs for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

-- consent_events (beyond the spec 5.4 matrix): SELECT, INSERT members; append-only (no UPDATE or DELETE for anyone but the system)
alter table public.consent_events enable row level security;
revoke all on public.consent_events from anon, authenticated;
grant all on public.consent_events to service_role;
grant select, insert on public.consent_events to authenticated;
-- SELECT(consent_events): beyond the spec 5.4 matrix (consent ledger): workspace members
create policy consent_events_select_members on public.consent_events for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- INSERT(consent_events): beyond the spec 5.4 matrix (consent ledger): workspace members, as
-- themselves (least privilege: the ledger is consent proof; nobody may write an entry in
-- another person's name, so actor_user_id = auth.uid()); no UPDATE or DELETE policy
create policy consent_events_insert_members on public.consent_events for insert to authenticated
  with check (
    workspace_id in (select public.user_workspace_ids())
    and actor_user_id = (select auth.uid())
  );

-- notifications (spec 6.3): SELECT members (workspace-wide ones and their own); created by the system
alter table public.notifications enable row level security;
revoke all on public.notifications from anon, authenticated;
grant all on public.notifications to service_role;
grant select on public.notifications to authenticated;
-- SELECT(notifications): spec 6.3 notifications; workspace members see the workspace-wide
-- ones and their own
create policy notifications_select_members on public.notifications for select to authenticated
  using (
    workspace_id in (select public.user_workspace_ids())
    and (user_id is null or user_id = (select auth.uid()))
  );

-- notification_reads (spec 6.3): a member marks notifications read for themself
alter table public.notification_reads enable row level security;
revoke all on public.notification_reads from anon, authenticated;
grant all on public.notification_reads to service_role;
grant select, insert, delete on public.notification_reads to authenticated;
-- SELECT/INSERT/DELETE(notification_reads): spec 6.3 notifications; a member's own read marks,
-- in their own workspaces
create policy notification_reads_own on public.notification_reads for all to authenticated
  using (user_id = (select auth.uid()) and workspace_id in (select public.user_workspace_ids()))
  with check (user_id = (select auth.uid()) and workspace_id in (select public.user_workspace_ids()));

-- rate_limit_hits (spec 4.2.1): no policies; the system alone reads and writes it
alter table public.rate_limit_hits enable row level security;
revoke all on public.rate_limit_hits from anon, authenticated;
grant all on public.rate_limit_hits to service_role;

-- webhook_inbox (spec 6.1): no policies; the system alone reads and writes it
alter table public.webhook_inbox enable row level security;
revoke all on public.webhook_inbox from anon, authenticated;
grant all on public.webhook_inbox to service_role;

-- contact_counts (spec 4.15 getContacts total): SELECT members; written only by its triggers
alter table public.contact_counts enable row level security;
revoke all on public.contact_counts from anon, authenticated;
grant select on public.contact_counts to authenticated;
grant all on public.contact_counts to service_role;
-- SELECT(contact_counts): spec 5.4 contacts: workspace members (the rows they count are theirs to see)
create policy contact_counts_select_members on public.contact_counts for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

-- ---------------------------------------------------------------- dashboard aggregates (home dashboard)
-- contact_daily_counts, contact_status_counts, form_daily_counts: SELECT members; written only by
-- their triggers (*_contacts.sql, *_forms.sql)
alter table public.contact_daily_counts enable row level security;
alter table public.contact_status_counts enable row level security;
alter table public.form_daily_counts enable row level security;
revoke all on public.contact_daily_counts, public.contact_status_counts, public.form_daily_counts
  from anon, authenticated;
grant select on public.contact_daily_counts, public.contact_status_counts, public.form_daily_counts
  to authenticated;
grant all on public.contact_daily_counts, public.contact_status_counts, public.form_daily_counts
  to service_role;
-- SELECT(contact_daily_counts): spec 5.4 contacts: workspace members (the contacts counted are theirs to see)
create policy contact_daily_counts_select_members on public.contact_daily_counts for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- SELECT(contact_status_counts): spec 5.4 contacts: workspace members
create policy contact_status_counts_select_members on public.contact_status_counts for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- SELECT(form_daily_counts): spec 5.4 form_submissions: workspace members
create policy form_daily_counts_select_members on public.form_daily_counts for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

-- ---------------------------------------------------------------- privacy requests
-- privacy_salts, erased_addresses, privacy_requests: written only by the system (the privacy
-- flows run as service_role after checking that the caller is an owner or admin)
alter table public.privacy_salts enable row level security;
alter table public.erased_addresses enable row level security;
alter table public.privacy_requests enable row level security;
revoke all on public.privacy_salts, public.erased_addresses, public.privacy_requests from anon, authenticated;
grant all on public.privacy_salts, public.erased_addresses, public.privacy_requests to service_role;
grant select on public.erased_addresses to authenticated;
-- SELECT(erased_addresses): spec 5.4 (every table limited to the rows of the caller's
-- workspaces): workspace members; hashes only
create policy erased_addresses_select_members on public.erased_addresses for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
grant select on public.privacy_requests to authenticated;
-- SELECT(privacy_requests): Admin+ of the workspace (the log of who asked for personal data)
create policy privacy_requests_select_admins on public.privacy_requests for select to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- privacy_salts: no policy, so members see nothing (the salt is never readable by members)

-- ---------------------------------------------------------------- outbound webhooks
-- webhook_endpoints: SELECT, INSERT, UPDATE, DELETE Admin+; webhook_deliveries: SELECT Admin+,
-- written by the system only (the event triggers, the delivery job, replay_webhook_delivery)
alter table public.webhook_endpoints enable row level security;
alter table public.webhook_deliveries enable row level security;
-- SELECT(webhook_endpoints): owners and admins of the workspace manage endpoints
create policy webhook_endpoints_select_admins on public.webhook_endpoints for select to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- INSERT(webhook_endpoints): owners and admins of the workspace
create policy webhook_endpoints_insert_admins on public.webhook_endpoints for insert to authenticated
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- UPDATE(webhook_endpoints): owners and admins of the workspace, within it
create policy webhook_endpoints_update_admins on public.webhook_endpoints for update to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])))
  with check (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- DELETE(webhook_endpoints): owners and admins of the workspace
create policy webhook_endpoints_delete_admins on public.webhook_endpoints for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
-- Grants: nothing to anon; members get what the policies then narrow. The signing secret is
-- encrypted and, on top of that, no member reads it back (least privilege:
-- column privileges; it is shown once, when created or rotated).
revoke all on public.webhook_endpoints, public.webhook_deliveries from anon, authenticated;
grant all on public.webhook_endpoints, public.webhook_deliveries to service_role;
grant insert, update, delete on public.webhook_endpoints to authenticated;
grant select (id, workspace_id, url, description, event_types, enabled, failing_since, disabled_reason,
              created_by, created_at, updated_at)
  on public.webhook_endpoints to authenticated;
-- SELECT(webhook_deliveries): owners and admins of the workspace (the delivery log);
-- no member writes a delivery, so no body is forged under the workspace's signature
create policy webhook_deliveries_select_admins on public.webhook_deliveries for select to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner', 'admin'])));
grant select on public.webhook_deliveries to authenticated;

-- ---------------------------------------------------------------- contact imports
alter table public.contact_imports enable row level security;
-- Grants, as for every table (…_rls.sql): nothing to anon; members read, and only the columns the
-- page shows (not the file, not the uploader's IP). Writes go through the server (the upload
-- route and the worker, as the service): no member writes a row, so a member cannot mark an
-- import done or swap its file.
revoke all on public.contact_imports from anon, authenticated;
grant all on public.contact_imports to service_role;
grant select (id, workspace_id, created_by, file_name, file_size, mark_subscribed, status, rows_total,
              rows_done, phase, attempts, result, error, created_at, started_at, finished_at)
  on public.contact_imports to authenticated;
-- SELECT(contact_imports): members of the workspace (the import page's history and progress)
create policy contact_imports_select_members on public.contact_imports for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

-- ---------------------------------------------------------------- audit log
alter table public.audit_log enable row level security;
revoke all on public.audit_log from anon, authenticated, service_role;
grant select, insert on public.audit_log to service_role;
grant select on public.audit_log to authenticated;
-- a member's row is dated by the database (created_at's default): no column to backdate it with
grant insert (workspace_id, actor_id, actor_email, action, target_type, target_id, before, after, ip)
  on public.audit_log to authenticated;

-- SELECT(audit_log): owners of the workspace only (an owners-only page)
create policy audit_log_select_owners on public.audit_log for select to authenticated
  using (workspace_id in (select public.user_workspace_ids(array['owner'])));
-- INSERT(audit_log): a member writes rows about themselves (their id and their email, as the
-- page shows the email), in their own workspace
create policy audit_log_insert_self on public.audit_log for insert to authenticated
  with check (actor_id = (select auth.uid())
              and actor_email is not distinct from ((select auth.jwt()) ->> 'email')
              and workspace_id in (select public.user_workspace_ids()));

-- ---------------------------------------------------------------- functions
grant execute on function public.user_workspace_ids(text[]), public.is_workspace_member(uuid),
  public.has_workspace_role(uuid, text[]) to authenticated, service_role;
