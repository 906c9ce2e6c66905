import type { Db } from "@/lib/db/doors";
import type { Role } from "./list-memberships";
import { invalid, listMembersSchema, type Result } from "./schemas";

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  sentAt: Date;
  expiresAt: Date;
  expired: boolean;
}

/** The workspace's open invitations, newest first (RLS: Admin+ only; others get none). */
export async function listInvitations(
  db: Db,
  input: { workspaceId: string },
): Promise<Result<PendingInvitation[]>> {
  const parsed = listMembersSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const rows = await db<PendingInvitation[]>`
    select id, email, role, sent_at as "sentAt", expires_at as "expiresAt", expires_at <= now() as expired
    from public.workspace_invitations
    where workspace_id = ${parsed.data.workspaceId} and accepted_at is null and revoked_at is null
    order by sent_at desc, id`;
  return { data: rows };
}
