import type { Db } from "@/lib/db/doors";
import { refused, type Refused } from "@/lib/errors/app-error";
import type { Role } from "./list-memberships";

/**
 * The rules of who may manage whom (spec 5.4 roles: owner, admin, member), checked before writing so that a refusal
 * reads well. RLS (workspace_members policies) and the keep_one_owner trigger hold the
 * same lines in the database; their refusals map to the same messages.
 */
export const MESSAGES = {
  notAdmin: "Only owners and admins can manage members.",
  ownerToAdd: "Only an owner can add an owner.",
  ownerToChange: "Only an owner can make someone an owner or change an owner's role.",
  ownerToRemove: "Only an owner can remove an owner.",
  lastOwnerLeave: "You are the last owner of this workspace. Make another member an owner before you leave.",
  lastOwnerDemote: "A workspace must keep at least one owner. Make another member an owner first.",
  notMember: "That person is not a member of this workspace.",
  alreadyMember: (email: string) => `${email} is already a member of this workspace.`,
  ownerToInvite: "Only an owner can invite an owner.",
  invitationGone: "That invitation is no longer open.",
} as const;

export function isAdmin(role: Role | null): boolean {
  return role === "owner" || role === "admin";
}

/** The caller's (auth.uid()) role in the workspace, or null when they are not in it. */
export async function callerRole(db: Db, workspaceId: string): Promise<Role | null> {
  const [row] = await db<{ role: Role }[]>`
    select role from public.workspace_members
    where workspace_id = ${workspaceId} and user_id = auth.uid()`;
  return row?.role ?? null;
}

export interface TargetMember {
  userId: string;
  role: Role;
  isSelf: boolean;
  otherOwners: number;
}

/** A member of the workspace as seen by the caller, with how many other owners there are. */
export async function targetMember(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<TargetMember | null> {
  const [row] = await db<TargetMember[]>`
    select m.user_id as "userId", m.role, m.user_id = auth.uid() as "isSelf",
           (select count(*)::int from public.workspace_members o
            where o.workspace_id = m.workspace_id and o.role = 'owner' and o.user_id <> m.user_id)
             as "otherOwners"
    from public.workspace_members m
    where m.workspace_id = ${workspaceId} and m.user_id = ${userId}`;
  return row ?? null;
}

/**
 * Maps the database's own refusals to the rule's message: the keep_one_owner trigger
 * (P0001) and an RLS check (42501). Anything else is unexpected and rethrown. Writes
 * that may be refused run in a savepoint, so the member's transaction survives them.
 */
export function refusal(error: unknown, messages: { lastOwner: string; forbidden: string }): Refused {
  const code = (error as { code?: string })?.code;
  if (code === "P0001" && String((error as Error).message).includes("at least one owner"))
    return refused("conflict", messages.lastOwner);
  if (code === "42501") return refused("forbidden", messages.forbidden);
  throw error;
}
