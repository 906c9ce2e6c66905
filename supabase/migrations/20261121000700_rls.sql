-- Row-level security on every table (spec 5.4; other tables: members read and write
-- their own workspace's rows, Admin+ for settings-like tables).
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
grant select, insert, update, delete on public.workspace_members to authenticated;
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
-- INSERT/UPDATE(user_profiles): only your own profile
create policy user_profiles_insert on public.user_profiles for insert to authenticated
  with check (id = (select auth.uid()));
create policy user_profiles_update on public.user_profiles for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));

-- SELECT(workspace_members): members see who else is in their workspaces
create policy workspace_members_select on public.workspace_members for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- INSERT/UPDATE(workspace_members): Admin+; only owners may add, change or make owners
create policy workspace_members_insert on public.workspace_members for insert to authenticated
  with check (
    workspace_id in (select public.user_workspace_ids(array['owner', 'admin']))
    and (role <> 'owner' or workspace_id in (select public.user_workspace_ids(array['owner'])))
  );
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

-- ---------------------------------------------------------------- member-owned data
-- Tables spec 5.4 does not list, and contacts (which it does): members of the
-- workspace select, insert, update and delete their workspace's rows.
do $$
declare
  t text;
begin
  foreach t in array array[
    'contacts', 'tags', 'contact_tags', 'products', 'tasks', 'notes', 'companies',
    'company_contacts', 'deals', 'deal_payments', 'appointments',
    'appointment_external_attendees', 'agreements', 'agreement_contacts', 'campaigns',
    'campaign_enrollments', 'broadcasts', 'email_sends'
  ]
  loop
    execute format('alter table public.%I enable row level security', t);
    execute format('revoke all on public.%I from anon, authenticated', t);
    execute format('grant select, insert, update, delete on public.%I to authenticated', t);
    execute format('grant all on public.%I to service_role', t);
    -- SELECT/INSERT/UPDATE/DELETE(t): members of the workspace
    execute format(
      'create policy %I on public.%I for all to authenticated
         using (workspace_id in (select public.user_workspace_ids()))
         with check (workspace_id in (select public.user_workspace_ids()))',
      t || '_members_all', t);
  end loop;
end
$$;

-- ---------------------------------------------------------------- spec 5.4 matrix
-- Helper to keep the matrix readable: one call per (table, operation, who).
create or replace function pg_temp.policy(tbl text, op text, who text) returns void
language plpgsql as $$
declare
  pred text := case who
    when 'members' then 'workspace_id in (select public.user_workspace_ids())'
    when 'admins' then 'workspace_id in (select public.user_workspace_ids(array[''owner'', ''admin'']))'
  end;
begin
  if op = 'insert' then
    execute format('create policy %I on public.%I for insert to authenticated with check (%s)',
      tbl || '_' || op || '_' || who, tbl, pred);
  elsif op = 'update' then
    execute format('create policy %I on public.%I for update to authenticated using (%s) with check (%s)',
      tbl || '_' || op || '_' || who, tbl, pred, pred);
  else
    execute format('create policy %I on public.%I for %s to authenticated using (%s)',
      tbl || '_' || op || '_' || who, tbl, op, pred);
  end if;
end
$$;

alter table public.forms enable row level security;
alter table public.form_submissions enable row level security;
alter table public.pending_form_submissions enable row level security;
alter table public.transactions enable row level security;
alter table public.contact_suppressions enable row level security;
alter table public.events enable row level security;
alter table public.event_registrations enable row level security;
alter table public.ticketing_connections enable row level security;
alter table public.payproc_connections enable row level security;
alter table public.api_keys enable row level security;
alter table public.automations enable row level security;
alter table public.automation_runs enable row level security;
alter table public.consent_events enable row level security;
alter table public.notifications enable row level security;
alter table public.notification_reads enable row level security;
alter table public.rate_limit_hits enable row level security;
alter table public.webhook_inbox enable row level security;

revoke all on public.forms, public.form_submissions, public.pending_form_submissions,
  public.transactions, public.contact_suppressions, public.events, public.event_registrations,
  public.ticketing_connections, public.payproc_connections, public.api_keys, public.automations,
  public.automation_runs, public.consent_events, public.notifications, public.notification_reads,
  public.rate_limit_hits, public.webhook_inbox
  from anon, authenticated;
grant all on public.forms, public.form_submissions, public.pending_form_submissions,
  public.transactions, public.contact_suppressions, public.events, public.event_registrations,
  public.ticketing_connections, public.payproc_connections, public.api_keys, public.automations,
  public.automation_runs, public.consent_events, public.notifications, public.notification_reads,
  public.rate_limit_hits, public.webhook_inbox
  to service_role;

-- forms: SELECT members; INSERT, UPDATE, DELETE Admin+
grant select, insert, update, delete on public.forms to authenticated;
select pg_temp.policy('forms', 'select', 'members');
select pg_temp.policy('forms', 'insert', 'admins');
select pg_temp.policy('forms', 'update', 'admins');
select pg_temp.policy('forms', 'delete', 'admins');

-- form_submissions: SELECT members; INSERT system only; UPDATE none; DELETE Admin+
grant select, delete on public.form_submissions to authenticated;
select pg_temp.policy('form_submissions', 'select', 'members');
select pg_temp.policy('form_submissions', 'delete', 'admins');

-- pending_form_submissions: SELECT members; INSERT system only; UPDATE none; DELETE members
grant select, delete on public.pending_form_submissions to authenticated;
select pg_temp.policy('pending_form_submissions', 'select', 'members');
select pg_temp.policy('pending_form_submissions', 'delete', 'members');

-- transactions: SELECT, INSERT, DELETE members; UPDATE members, of status and amount_refunded only
grant select, insert, delete on public.transactions to authenticated;
grant update (status, amount_refunded) on public.transactions to authenticated;
select pg_temp.policy('transactions', 'select', 'members');
select pg_temp.policy('transactions', 'insert', 'members');
select pg_temp.policy('transactions', 'update', 'members');
select pg_temp.policy('transactions', 'delete', 'members');

-- contact_suppressions: SELECT, INSERT, DELETE members; UPDATE none.
-- DELETE never reaches a complaint (spec 3.3; the trigger keep_complaint_suppressions
-- holds the same line for the system).
grant select, insert, delete on public.contact_suppressions to authenticated;
select pg_temp.policy('contact_suppressions', 'select', 'members');
select pg_temp.policy('contact_suppressions', 'insert', 'members');
create policy contact_suppressions_delete_members on public.contact_suppressions for delete to authenticated
  using (workspace_id in (select public.user_workspace_ids()) and reason <> 'complaint');

-- events: SELECT members; INSERT, UPDATE, DELETE Admin+
grant select, insert, update, delete on public.events to authenticated;
select pg_temp.policy('events', 'select', 'members');
select pg_temp.policy('events', 'insert', 'admins');
select pg_temp.policy('events', 'update', 'admins');
select pg_temp.policy('events', 'delete', 'admins');

-- event_registrations: SELECT members; INSERT, UPDATE system only; DELETE Admin+
grant select, delete on public.event_registrations to authenticated;
select pg_temp.policy('event_registrations', 'select', 'members');
select pg_temp.policy('event_registrations', 'delete', 'admins');

-- ticketing_connections, payproc_connections, api_keys, automations:
-- SELECT members; INSERT, UPDATE, DELETE Admin+
grant select, insert, update, delete on public.ticketing_connections, public.payproc_connections,
  public.api_keys, public.automations to authenticated;
select pg_temp.policy(t, op, case when op = 'select' then 'members' else 'admins' end)
from unnest(array['ticketing_connections', 'payproc_connections', 'api_keys', 'automations']) as t,
     unnest(array['select', 'insert', 'update', 'delete']) as op;

-- automation_runs: SELECT members; written by the system
grant select on public.automation_runs to authenticated;
select pg_temp.policy('automation_runs', 'select', 'members');

-- consent_events: SELECT, INSERT members; append-only (no UPDATE or DELETE for anyone but the system)
grant select, insert on public.consent_events to authenticated;
select pg_temp.policy('consent_events', 'select', 'members');
select pg_temp.policy('consent_events', 'insert', 'members');

-- notifications: SELECT members (workspace-wide ones and their own); created by the system
grant select on public.notifications to authenticated;
create policy notifications_select_members on public.notifications for select to authenticated
  using (
    workspace_id in (select public.user_workspace_ids())
    and (user_id is null or user_id = (select auth.uid()))
  );

-- notification_reads: a member marks notifications read for themself
grant select, insert, delete on public.notification_reads to authenticated;
create policy notification_reads_own on public.notification_reads for all to authenticated
  using (user_id = (select auth.uid()) and workspace_id in (select public.user_workspace_ids()))
  with check (user_id = (select auth.uid()) and workspace_id in (select public.user_workspace_ids()));

-- rate_limit_hits, webhook_inbox: no policies; the system alone reads and writes them.

-- ---------------------------------------------------------------- functions
revoke execute on function public.check_rate_limit(text, integer, integer) from public, anon, authenticated;
grant execute on function public.check_rate_limit(text, integer, integer) to service_role;
grant execute on function public.user_workspace_ids(text[]), public.is_workspace_member(uuid),
  public.has_workspace_role(uuid, text[]) to authenticated, service_role;
