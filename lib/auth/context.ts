import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { withUser, type Claims, type Db } from "@/lib/db/doors";
import { currentWorkspace } from "@/lib/workspaces/current-workspace";
import { listMemberships, type Membership, type Role } from "@/lib/workspaces/list-memberships";
import { getClaims, WORKSPACE_COOKIE } from "./session";

export interface MemberContext {
  claims: Claims;
  userId: string;
  workspace: Membership;
  memberships: Membership[];
}

/**
 * The signed-in member and the workspace they are working in (the one chosen in the
 * switcher, kept in a cookie, else their first). The workspace always comes from the
 * server-side membership list, never from the client. Redirects to sign-in without a session.
 */
export async function requireMember(): Promise<MemberContext> {
  const claims = await getClaims();
  if (!claims) redirect("/sign-in");
  const ctx = await memberContext(claims);
  // Signed in but in no workspace (they left or were removed): a page to create one.
  if (!ctx) redirect("/no-workspace");
  return ctx;
}

export async function currentMember(): Promise<MemberContext | null> {
  const claims = await getClaims();
  return claims ? memberContext(claims) : null;
}

async function memberContext(claims: Claims): Promise<MemberContext | null> {
  const memberships = await withUser(claims, listMemberships);
  const workspace = currentWorkspace(memberships, (await cookies()).get(WORKSPACE_COOKIE)?.value);
  if (!workspace) return null;
  return { claims, userId: claims.sub, workspace, memberships };
}

export class NotAuthorizedError extends Error {
  constructor(message = "Insufficient permissions") {
    super(message);
  }
}

/**
 * For server actions and route handlers: runs `fn` as the signed-in member inside their
 * current workspace, optionally requiring a role. The tenant check cannot be forgotten.
 */
export async function withMember<T>(
  fn: (db: Db, ctx: MemberContext) => Promise<T>,
  options: { roles?: Role[] } = {},
): Promise<T> {
  const ctx = await requireMember();
  if (options.roles && !options.roles.includes(ctx.workspace.role)) throw new NotAuthorizedError();
  return withUser(ctx.claims, (db) => fn(db, ctx));
}

export const ADMIN_ROLES: Role[] = ["owner", "admin"];
