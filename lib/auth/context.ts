import "server-only";
import { cookies } from "next/headers";
import { cache } from "react";
import { redirect } from "next/navigation";
import { withService, type Claims, type Db } from "@/lib/db/doors";
import { safeTimeZone } from "@/lib/time/zones";
import { currentWorkspace } from "@/lib/workspaces/current-workspace";
import type { Membership, Role } from "@/lib/workspaces/list-memberships";
import { renewIfDue, signedIn, WORKSPACE_COOKIE, type SignedIn } from "./session";

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

/**
 * As requireMember without the redirects: undefined without a session, null without a workspace.
 * One transaction: the session's version, the memberships and the time zone (memberIn).
 */
export const currentMember = cache(async (): Promise<MemberContext | null | undefined> => {
  const session = await signedIn();
  if (!session) return undefined;
  const chosen = await chosenWorkspace();
  const member = await withService((db) => memberIn(db, session, chosen));
  if (member !== undefined) await renewIfDue(session);
  return member;
});

/** The workspace picked in the switcher (a preference: memberIn checks it against the memberships). */
export async function chosenWorkspace(): Promise<string | undefined> {
  return (await cookies()).get(WORKSPACE_COOKIE)?.value;
}

/**
 * The member a session names, read in the caller's transaction as the service (so that the
 * session check, the membership and the caller's work can share one transaction): undefined when
 * the session no longer counts (its version is not the account's), null when the account is in
 * no workspace. The memberships are the account's own rows (`user_id` from the verified session),
 * the workspace the chosen one if they still belong to it; the second-factor requirement is read
 * with them. Three statements, sent together: one round trip.
 */
export async function memberIn(
  db: Db,
  session: SignedIn,
  chosen: string | undefined,
): Promise<MemberContext | null | undefined> {
  const { claims } = session;
  // each statement is sent before the first await (asServiceAtOnce): all three leave together
  const [version, memberships, [profile]] = await Promise.all([
    session.version === null
      ? null
      : db<{ session_version: number }[]>`
          select session_version from auth.users where id = ${claims.sub}`.execute(),
    db<(Membership & { requireTwoFactor: boolean })[]>`
      select w.id as "workspaceId", w.name as "workspaceName", m.role, m.created_at as "joinedAt",
             coalesce(s.require_two_factor, false) as "requireTwoFactor"
      from public.workspace_members m
      join public.workspaces w on w.id = m.workspace_id
      left join public.workspace_security s on s.workspace_id = m.workspace_id
      where m.user_id = ${claims.sub}
      order by w.name, w.id`.execute(),
    db<
      { timezone: string | null }[]
    >`select timezone from public.user_profiles where id = ${claims.sub}`.execute(),
  ]);
  // a local session counts while its version is the account's (docs/decisions.md, "Sessions")
  const current = version === null || version[0]?.session_version === session.version;
  if (!current) return undefined;
  const list: Membership[] = memberships.map(({ requireTwoFactor: _, ...m }) => m);
  const workspace = currentWorkspace(list, chosen);
  if (!workspace) return null;
  const required = memberships.find((m) => m.workspaceId === workspace.workspaceId)!.requireTwoFactor;
  return {
    claims,
    userId: claims.sub,
    workspace,
    memberships: list,
    timeZone: safeTimeZone(profile?.timezone),
    // an aal2 session meets any workspace's requirement
    twoFactorMissing: claims.aal !== "aal2" && required,
  };
}

export const ADMIN_ROLES: Role[] = ["owner", "admin"];
