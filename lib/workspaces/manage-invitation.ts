import type { Db } from "@/lib/db/doors";
import { refused } from "@/lib/errors/app-error";
import { INVITATION_DAYS, newLinkToken } from "@/lib/auth/account-links";
import { sendInvitationEmail } from "./invitation-email";
import { callerRole, isAdmin, MESSAGES } from "./member-permissions";
import { invalid, invitationIdSchema, type Result } from "./schemas";

type Input = { workspaceId: string; invitationId: string };

/**
 * Admin+ revoke an open invitation: its link stops working at once. RLS
 * (workspace_invitations_update) holds the same line: owner invitations only by owners.
 */
export async function revokeInvitation(db: Db, input: Input): Promise<Result<{ email: string }>> {
  const parsed = invitationIdSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { workspaceId, invitationId } = parsed.data;
  if (!isAdmin(await callerRole(db, workspaceId))) return refused("forbidden", MESSAGES.notAdmin);
  const [row] = await db`
    update public.workspace_invitations set revoked_at = now()
    where id = ${invitationId} and workspace_id = ${workspaceId} and accepted_at is null and revoked_at is null
    returning email`;
  return row ? { data: { email: row.email } } : refused("not_found", MESSAGES.invitationGone);
}

/** Admin+ send an open invitation again: a new link and a new expiry; the old link stops working. */
export async function resendInvitation(db: Db, input: Input): Promise<Result<{ email: string }>> {
  const parsed = invitationIdSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { workspaceId, invitationId } = parsed.data;
  if (!isAdmin(await callerRole(db, workspaceId))) return refused("forbidden", MESSAGES.notAdmin);
  const { token, digest } = newLinkToken();
  const [row] = await db`
    update public.workspace_invitations i
    set token_hash = ${digest}, sent_at = now(), expires_at = now() + make_interval(days => ${INVITATION_DAYS})
    from public.workspaces w
    where i.id = ${invitationId} and i.workspace_id = ${workspaceId} and w.id = i.workspace_id
      and i.accepted_at is null and i.revoked_at is null
    returning i.email, i.role, w.name`;
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
