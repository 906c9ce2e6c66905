import type { Db } from "@/lib/db/doors";
import { refused } from "@/lib/errors/app-error";
import { INVITATION_DAYS, newLinkToken } from "@/lib/auth/account-links";
import { sendInvitationEmail } from "./invitation-email";
import type { Role } from "./list-memberships";
import { writeMembership } from "./membership-writes";
import { callerRole, isAdmin, MESSAGES } from "./member-permissions";
import { invalid, inviteMemberSchema, type InviteMemberInput, type Result } from "./schemas";

export interface Invited {
  invitationId: string;
  email: string;
  role: Role;
}

/**
 * docs/decisions.md, "Invitations instead of direct adds": "adding" a member sends an invitation; nobody
 * joins without accepting it (acceptInvitation). One transaction as the signed-in member: Admin+ invite,
 * only owners invite owners, a current member is reported. Inviting an address that
 * already has an open invitation resends it with a new link (the old one stops working).
 * Whether the address has an account is neither checked nor revealed.
 */
export async function inviteMember(db: Db, input: InviteMemberInput): Promise<Result<Invited>> {
  const parsed = inviteMemberSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { workspaceId, email, role } = parsed.data;

  const caller = await callerRole(db, workspaceId);
  if (!isAdmin(caller)) return refused("forbidden", MESSAGES.notAdmin);
  if (role === "owner" && caller !== "owner")
    return refused("forbidden", MESSAGES.ownerToInvite, { field: "role" });
  const [member] = await db`
    select 1 from public.workspace_members m join public.user_profiles p on p.id = m.user_id
    where m.workspace_id = ${workspaceId} and lower(p.email) = ${email}`;
  if (member) return refused("conflict", MESSAGES.alreadyMember(email), { field: "email" });

  const { token, digest } = newLinkToken();
  // through the service door (members hold no INSERT or UPDATE on invitations); the statement repeats
  // the role rule, and an open owner invitation is changed only by an owner
  const [row] = await writeMembership(
    db,
    workspaceId,
    () => db`
      insert into public.workspace_invitations as i (workspace_id, email, role, token_hash, invited_by, expires_at)
      select ${workspaceId}, ${email}, ${role}, ${digest}, auth.uid(), now() + make_interval(days => ${INVITATION_DAYS})
      where public.has_workspace_role(${workspaceId}, array['owner', 'admin'])
        and (${role} <> 'owner' or public.has_workspace_role(${workspaceId}, array['owner']))
      on conflict (workspace_id, email) where accepted_at is null and revoked_at is null do update
        set role = excluded.role, token_hash = excluded.token_hash, invited_by = excluded.invited_by,
            sent_at = now(), expires_at = excluded.expires_at
        where i.role <> 'owner' or public.has_workspace_role(i.workspace_id, array['owner'])
      returning i.id`,
  );
  if (!row) return refused("forbidden", MESSAGES.ownerToInvite, { field: "role" });
  const invitationId: string = row.id;
  const [ws] = await db`select name from public.workspaces where id = ${workspaceId}`;
  await sendInvitationEmail(db, { workspaceId, workspaceName: ws.name, email, role, token });
  return { data: { invitationId, email, role } };
}
