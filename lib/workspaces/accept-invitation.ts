import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { linkDigest, looksLikeLinkToken } from "@/lib/auth/account-links";
import type { Role } from "./list-memberships";

export const INVITATION_INVALID =
  "This invitation is not valid any more: it has expired, was revoked or was used already. Ask for a new one.";
export const INVITATION_OTHER_EMAIL =
  "This invitation was sent to another email address. Sign in with the address it was sent to.";

export interface InvitationView {
  workspaceName: string;
  email: string;
  role: Role;
}

/** What an open invitation's page shows (to whoever holds its link); null when not open. */
export async function findInvitation(db: Db, token: string): Promise<InvitationView | null> {
  if (!looksLikeLinkToken(token)) return null;
  const [row] = await db<InvitationView[]>`
    select w.name as "workspaceName", i.email, i.role
    from public.workspace_invitations i join public.workspaces w on w.id = i.workspace_id
    where i.token_hash = ${linkDigest(token)}
      and i.accepted_at is null and i.revoked_at is null and i.expires_at > now()`;
  return row ?? null;
}

/**
 * docs/decisions.md, "Invitations instead of direct adds": the membership is created here and only here, when
 * the person the invitation was sent to accepts it, signed in with that address, confirmed. The link is
 * spent (single use). Runs as the system: members cannot insert memberships.
 */
export async function acceptInvitation(
  db: Db,
  input: { token: string; userId: string },
): Promise<Result<{ workspaceId: string; role: Role }>> {
  if (!looksLikeLinkToken(input.token)) return refused("not_found", INVITATION_INVALID);
  const [inv] = await db`
    select id, workspace_id, email, role from public.workspace_invitations
    where token_hash = ${linkDigest(input.token)}
      and accepted_at is null and revoked_at is null and expires_at > now()
    for update`;
  if (!inv) return refused("not_found", INVITATION_INVALID);
  const [user] = await db`
    select email from auth.users
    where id = ${input.userId} and lower(email) = ${inv.email} and email_confirmed_at is not null`;
  if (!user) return refused("forbidden", INVITATION_OTHER_EMAIL);
  await db`insert into public.user_profiles (id, email) values (${input.userId}, ${inv.email}) on conflict (id) do nothing`;
  await db`
    insert into public.workspace_members (workspace_id, user_id, role)
    values (${inv.workspace_id}, ${input.userId}, ${inv.role})
    on conflict (workspace_id, user_id) do nothing`;
  await db`update public.workspace_invitations set accepted_at = now(), accepted_by = ${input.userId} where id = ${inv.id}`;
  return { data: { workspaceId: inv.workspace_id, role: inv.role } };
}
