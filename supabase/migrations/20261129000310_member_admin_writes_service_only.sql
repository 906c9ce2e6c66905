-- Invitations and roles are written by the service path only (docs/decisions.md, "The second factor
-- holds at the database"). Owners and admins held INSERT and UPDATE on workspace_invitations and
-- UPDATE(role) on workspace_members through PostgREST, so they could un-revoke an invitation, make
-- it never expire, set its token digest to one they chose, or change roles without the app's
-- step-up and with no audit row. The app writes them through asServiceForMember after its role and
-- step-up checks, with the audit row in the same transaction (lib/workspaces/invite-member.ts,
-- manage-invitation.ts, change-member-role.ts). Members keep reading both tables, and removing
-- members (DELETE on workspace_members, policy workspace_members_delete).

revoke insert, update on public.workspace_invitations from authenticated;
revoke update on public.workspace_members from authenticated;

-- the policies these grants were decided by: no grant is left for them to decide over
drop policy workspace_invitations_insert on public.workspace_invitations;
drop policy workspace_invitations_update on public.workspace_invitations;
drop policy workspace_members_update on public.workspace_members;
