import "server-only";
import { cache } from "react";
import { cookies } from "next/headers";
import { withService, type Claims } from "@/lib/db/doors";
import { isHttps } from "@/lib/config";
import { currentSession } from "./current-session";
import { supabaseClaims, supabaseClient, supabaseConfigured, type CookieJar } from "./supabase-provider";
import { SESSION_TTL_SECONDS, signSessionToken } from "./tokens";

export const SESSION_COOKIE = "crm_session";
export const WORKSPACE_COOKIE = "crm_workspace";

async function jar(): Promise<CookieJar> {
  const store = await cookies();
  return {
    getAll: () => store.getAll(),
    setAll: (list) => list.forEach(({ name, value, options }) => store.set(name, value, options)),
  };
}

/** Session and workspace cookies: httpOnly, SameSite=Lax, and Secure when APP_URL is https. */
function cookieOptions(maxAge: number) {
  return { httpOnly: true, sameSite: "lax" as const, secure: isHttps(), path: "/", maxAge };
}

/**
 * The signed-in member's claims from whichever provider is configured, or null. A local
 * session counts only while its version is the account's current one (docs/decisions.md, "Sessions":
 * a password change or reset and "sign out everywhere" raise it). Once per request (React cache).
 */
export const getClaims = cache(async (): Promise<Claims | null> => {
  if (supabaseConfigured()) return supabaseClaims(await jar());
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const session = token ? await withService((db) => currentSession(db, token)) : null;
  if (!session) return null;
  if (session.renew) await renewSession(session.claims, session.version);
  return session.claims;
});

/** Sliding renewal: possible where cookies may be written (actions, route handlers). */
async function renewSession(claims: Claims, version: number): Promise<void> {
  try {
    await startLocalSession({ id: claims.sub, email: claims.email ?? "", sessionVersion: version });
  } catch {
    // A server component cannot set cookies; the member's next action renews the session.
  }
}

/** Local provider: issue the session cookie for a user whose password was checked. */
export async function startLocalSession(user: {
  id: string;
  email: string;
  sessionVersion: number;
}): Promise<void> {
  (await cookies()).set(SESSION_COOKIE, await signSessionToken(user), cookieOptions(SESSION_TTL_SECONDS));
}

/**
 * Ends this browser's session. The chosen workspace stays across sign-out; it is only a preference,
 * checked against the memberships on every request (docs/decisions.md, "Invitations instead of direct adds").
 */
export async function endSession(): Promise<void> {
  // this browser only: Supabase's default scope is global ("Sign out everywhere" asks for that)
  if (supabaseConfigured()) await supabaseClient(await jar()).auth.signOut({ scope: "local" });
  (await cookies()).delete(SESSION_COOKIE);
}

/** Remembers the workspace the member works in (a year; a preference, not a credential). */
export async function chooseWorkspace(workspaceId: string): Promise<void> {
  (await cookies()).set(WORKSPACE_COOKIE, workspaceId, cookieOptions(60 * 60 * 24 * 365));
}
