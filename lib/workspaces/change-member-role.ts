import type { Db } from "@/lib/db/doors";
import { refused } from "@/lib/errors/app-error";
import type { Role } from "./list-memberships";
import { writeMembership } from "./membership-writes";
import { callerRole, isAdmin, MESSAGES, refusal, targetMember } from "./member-permissions";
import { changeMemberRoleSchema, invalid, type ChangeMemberRoleInput, type Result } from "./schemas";

/**
 * Spec 5.4 roles: Admin+ change a member's role; only owners promote to or demote from owner;
 * the last owner cannot be demoted (also refused by the keep_one_owner trigger). Written through the
 * service door (members hold no UPDATE on workspace_members), whose statement repeats the role rule.
 */
export async function changeMemberRole(
  db: Db,
  input: ChangeMemberRoleInput,
): Promise<Result<{ userId: string; role: Role }>> {
  const parsed = changeMemberRoleSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { workspaceId, userId, role } = parsed.data;

  const caller = await callerRole(db, workspaceId);
  if (!isAdmin(caller)) return refused("forbidden", MESSAGES.notAdmin);
  const target = await targetMember(db, workspaceId, userId);
  if (!target) return refused("not_found", MESSAGES.notMember);
  if (target.role === role) return { data: { userId, role } };
  if ((target.role === "owner" || role === "owner") && caller !== "owner")
    return refused("forbidden", MESSAGES.ownerToChange, { field: "role" });
  if (target.role === "owner" && target.otherOwners === 0)
    return refused("conflict", MESSAGES.lastOwnerDemote);

  try {
    const updated = await db.savepoint((sp) =>
      writeMembership(
        sp,
        workspaceId,
        () => sp`
          update public.workspace_members set role = ${role}
          where workspace_id = ${workspaceId} and user_id = ${userId}
            and public.has_workspace_role(workspace_id, array['owner', 'admin'])
            and ((role <> 'owner' and ${role} <> 'owner') or public.has_workspace_role(workspace_id, array['owner']))
          returning user_id`,
      ),
    );
    if (updated.length === 0) return refused("forbidden", MESSAGES.ownerToChange);
  } catch (error) {
    return refusal(error, { lastOwner: MESSAGES.lastOwnerDemote, forbidden: MESSAGES.ownerToChange });
  }
  return { data: { userId, role } };
}
