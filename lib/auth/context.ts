import "server-only";
import { cookies } from "next/headers";
import { cache } from "react";
import { redirect } from "next/navigation";
import { withUser, type Claims, type Db } from "@/lib/db/doors";
import { readViewerTimeZone } from "@/lib/time/read-viewer-time-zone";
import { currentWorkspace } from "@/lib/workspaces/current-workspace";
import { listMemberships, type Membership, type Role } from "@/lib/workspaces/list-memberships";
import { getClaims, WORKSPACE_COOKIE } from "./session";

export interface MemberContext {
  claims: Claims;
  userId: string;
  workspace: Membership;
  memberships: Membership[];
  /** the viewer's time zone (user_profiles.timezone, UTC when unset or unknown) */
  timeZone: string;
}

/**
 * The signed-in member and the workspace they are working in (the one chosen in the
 * switcher, kept in a cookie, else their first). The workspace always comes from the
 * server-side membership list, never from the client. Redirects to sign-in without a session.
 * Memoised per request (React cache()): the layout, the page and its components share one
 * membership check.
 */
export const requireMember = cache(async (): Promise<MemberContext> => {
  const ctx = await currentMember();
  if (ctx === undefined) redirect("/sign-in");
  // Signed in but in no workspace (they left or were removed): a page to create one.
  if (!ctx) redirect("/no-workspace");
  return ctx;
});

/** As requireMember without the redirects: undefined without a session, null without a workspace. */
export const currentMember = cache(async (): Promise<MemberContext | null | undefined> => {
  const claims = await getClaims();
  return claims ? memberContext(claims) : undefined;
});

async function memberContext(claims: Claims): Promise<MemberContext | null> {
  const [memberships, timeZone] = await withUser(claims, (db) =>
    Promise.all([listMemberships(db), readViewerTimeZone(db)]),
  );
  const workspace = currentWorkspace(memberships, (await cookies()).get(WORKSPACE_COOKIE)?.value);
  if (!workspace) return null;
  return { claims, userId: claims.sub, workspace, memberships, timeZone };
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

/**
 * withMember for owners and admins, with a refusal as a value: `{ error: refusal }` for a
 * member of another role, so a server action can show it as its form's message.
 */
export async function withAdmin<T>(
  fn: (db: Db, ctx: MemberContext) => Promise<T>,
  refusal: string,
): Promise<T | { error: string }> {
  try {
    return await withMember(fn, { roles: ADMIN_ROLES });
  } catch (error) {
    if (error instanceof NotAuthorizedError) return { error: refusal };
    throw error;
  }
}
