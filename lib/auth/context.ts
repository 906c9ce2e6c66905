import "server-only";
import { cookies } from "next/headers";
import { cache } from "react";
import { redirect } from "next/navigation";
import { withService, withUser, type Claims } from "@/lib/db/doors";
import { requiresTwoFactor } from "@/lib/two-factor/workspace-requirement";
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
  /**
   * The workspace requires two-factor and this session has none (not aal2): the member is sent
   * to enrolment before using it (requireMember), and routes refuse.
   */
  twoFactorMissing: boolean;
}

/** Where a member without the second factor a workspace requires is sent. */
export const TWO_FACTOR_ENROLMENT = "/account/security?required=1";

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
  if (ctx.twoFactorMissing) redirect(TWO_FACTOR_ENROLMENT);
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
  // an aal2 session meets any workspace's requirement: the setting is read only without one
  const twoFactorMissing =
    claims.aal !== "aal2" && (await withService((db) => requiresTwoFactor(db, workspace.workspaceId)));
  return { claims, userId: claims.sub, workspace, memberships, timeZone, twoFactorMissing };
}

export const ADMIN_ROLES: Role[] = ["owner", "admin"];
