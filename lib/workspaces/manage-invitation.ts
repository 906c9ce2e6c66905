import type { Db } from "@/lib/db/doors";
import { refused } from "@/lib/errors/app-error";
import { INVITATION_DAYS, newLinkToken } from "@/lib/auth/account-links";
import { sendInvitationEmail } from "./invitation-email";
import { writeMembership } from "./membership-writes";
import { callerRole, isAdmin, MESSAGES } from "./member-permissions";
import { invalid, invitationIdSchema, type Result } from "./schemas";

type Input = { workspaceId: string; invitationId: string };

/**
 * Admin+ revoke an open invitation: its link stops working at once; owner invitations only by owners.
 * Written through the service door (writeMembership), whose statement repeats the role rule.
 */
export async function revokeInvitation(db: Db, input: Input): Promise<Result<{ email: string }>> {
  const parsed = invitationIdSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { workspaceId, invitationId } = parsed.data;
  if (!isAdmin(await callerRole(db, workspaceId))) return refused("forbidden", MESSAGES.notAdmin);
  const [row] = await writeMembership(
    db,
    workspaceId,
    () => db`
      update public.workspace_invitations set revoked_at = now()
      where id = ${invitationId} and workspace_id = ${workspaceId} and accepted_at is null and revoked_at is null
        and ${mayManageInvitation(db)}
      returning email`,
  );
  return row ? { data: { email: row.email } } : refused("not_found", MESSAGES.invitationGone);
}

/**
 * Admin+ send an open invitation again (owner invitations: owners only): a new link and a new expiry;
 * the old link stops working. Written through the service door, as revokeInvitation.
 */
export async function resendInvitation(db: Db, input: Input): Promise<Result<{ email: string }>> {
  const parsed = invitationIdSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { workspaceId, invitationId } = parsed.data;
  if (!isAdmin(await callerRole(db, workspaceId))) return refused("forbidden", MESSAGES.notAdmin);
  const { token, digest } = newLinkToken();
  const [row] = await writeMembership(
    db,
    workspaceId,
    () => db`
      update public.workspace_invitations
      set token_hash = ${digest}, sent_at = now(), expires_at = now() + make_interval(days => ${INVITATION_DAYS})
      where id = ${invitationId} and workspace_id = ${workspaceId}
        and accepted_at is null and revoked_at is null and ${mayManageInvitation(db)}
      returning email, role, (select w.name from public.workspaces w where w.id = workspace_id) as name`,
  );
  if (!row) return refused("not_found", MESSAGES.invitationGone);
  await sendInvitationEmail(db, {
    workspaceId,
    workspaceName: row.name,
    email: row.email,
    role: row.role,
    token,
  });
  return { data: { email: row.email } };
}

/**
 * The rule the invitation policies held, for a statement run as the service with the caller's claims:
 * Admin+ of the workspace, and owner invitations only by owners.
 */
const mayManageInvitation = (db: Db) => db`
  public.has_workspace_role(workspace_id, array['owner', 'admin'])
  and (role <> 'owner' or public.has_workspace_role(workspace_id, array['owner']))`;
