import type { Db } from "@/lib/db/doors";
import { refused } from "@/lib/errors/app-error";
import { callerRole, isAdmin, MESSAGES, refusal, targetMember } from "./member-permissions";
import { invalid, removeMemberSchema, type RemoveMemberInput, type Result } from "./schemas";

/**
 * Spec 5.4 roles: Admin+ remove members, only owners remove an owner; any member may leave
 * (remove themself) except the last owner. RLS and the keep_one_owner trigger refuse
 * the same cases in the database.
 */
export async function removeMember(
  db: Db,
  input: RemoveMemberInput,
): Promise<Result<{ userId: string; left: boolean }>> {
  const parsed = removeMemberSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { workspaceId, userId } = parsed.data;

  const caller = await callerRole(db, workspaceId);
  if (!caller) return refused("not_found", MESSAGES.notMember);
  const target = await targetMember(db, workspaceId, userId);
  if (!target) return refused("not_found", MESSAGES.notMember);
  const lastOwner = target.isSelf ? MESSAGES.lastOwnerLeave : MESSAGES.lastOwnerDemote;
  if (!target.isSelf) {
    if (!isAdmin(caller)) return refused("forbidden", MESSAGES.notAdmin);
    if (target.role === "owner" && caller !== "owner") return refused("forbidden", MESSAGES.ownerToRemove);
  }
  if (target.role === "owner" && target.otherOwners === 0) return refused("conflict", lastOwner);

  try {
    const deleted = await db.savepoint(
      (sp) => sp`
      delete from public.workspace_members
      where workspace_id = ${workspaceId} and user_id = ${userId}
      returning user_id`,
    );
    if (deleted.length === 0) return refused("forbidden", MESSAGES.ownerToRemove);
  } catch (error) {
    return refusal(error, { lastOwner, forbidden: MESSAGES.ownerToRemove });
  }
  return { data: { userId, left: target.isSelf } };
}
