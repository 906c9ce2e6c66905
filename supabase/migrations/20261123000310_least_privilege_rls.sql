-- Least-privilege RLS (issue 13, attack 7), for deployments where Supabase's REST API reaches
-- the database with a member's JWT.

-- ticketing_connections: the Eventbrite access token (a non-expiring credential of the
-- organisation's Eventbrite account) and the webhook secret's digest are readable by the
-- service only. Column privileges: members keep reading every other column (the settings
-- page) and the row rules of spec 5.4 stay as they are (SELECT members; INSERT, UPDATE,
-- DELETE Admin+; writing a token is harmless, reading it is not). The flows that read the
-- token (connect, disconnect, sync, delivery processing) run through the service door after
-- checking the member's role.
revoke select on public.ticketing_connections from authenticated;
grant select (id, workspace_id, organization_id, organization_name, webhook_id,
              auto_subscribe_attendees, connected_at, updated_at, webhook_secured)
  on public.ticketing_connections to authenticated;

-- consent_events: a member's entry names that member as its actor (the ledger is consent
-- proof; nobody may write one in another person's name). Replaces consent_events_insert_members.
drop policy consent_events_insert_members on public.consent_events;
-- INSERT(consent_events): members of the workspace, as themselves (actor_user_id = auth.uid())
create policy consent_events_insert_members on public.consent_events for insert to authenticated
  with check (
    workspace_id in (select public.user_workspace_ids())
    and actor_user_id = (select auth.uid())
  );

-- contact_suppressions: members add only 'manual' blocks (spec 2.6); 'bounce' and 'complaint'
-- come from the email provider and 'unsubscribe' from the unsubscribe flows, all as the system
-- (a complaint suppression can never be removed, so a member must not be able to forge one).
-- Replaces contact_suppressions_insert_members.
drop policy contact_suppressions_insert_members on public.contact_suppressions;
-- INSERT(contact_suppressions): members of the workspace, reason 'manual' only
create policy contact_suppressions_insert_members on public.contact_suppressions for insert to authenticated
  with check (workspace_id in (select public.user_workspace_ids()) and reason = 'manual');
