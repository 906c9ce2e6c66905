import "server-only";
import { cache } from "react";
import { cookies } from "next/headers";
import { withService, type Claims, type Db } from "@/lib/db/doors";
import { isHttps } from "@/lib/config";
import {
  PENDING_SIGN_IN_SECONDS,
  readPendingSignIn,
  signPendingSignIn,
  type PendingSignIn,
} from "@/lib/two-factor/pending-sign-in";
import { sessionVersionMatches } from "./current-session";
import { supabaseClaims, supabaseClient, supabaseConfigured, type CookieJar } from "./supabase-provider";
import {
  SESSION_RENEW_AFTER_SECONDS,
  SESSION_TTL_SECONDS,
  signSessionToken,
  verifySessionToken,
  type SessionAssurance,
} from "./tokens";

export const SESSION_COOKIE = "crm_session";
export const WORKSPACE_COOKIE = "crm_workspace";
/** Between the password and the second factor (lib/two-factor/pending-sign-in.ts). */
export const PENDING_SIGN_IN_COOKIE = "crm_sign_in_pending";

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
 * The member adapters check the version in the transaction of the work instead (signedIn, then
 * memberIn in lib/auth/context.ts).
 */
export const getClaims = cache(async (): Promise<Claims | null> => {
  const session = await signedIn();
  if (!session) return null;
  if (session.version !== null && !(await withService((db) => sessionCurrent(db, session)))) return null;
  await renewIfDue(session);
  return session.claims;
});

/** A session as its cookie proves it, before any query. */
export interface SignedIn {
  claims: Claims;
  /** a local session's version, to be checked against the account's (null: Supabase decides) */
  version: number | null;
  /** a local session due for a new token (sliding renewal) */
  renew: boolean;
}

/**
 * The session's claims without the database: the signed local token (its version still to be
 * checked, in the caller's transaction, by sessionCurrent) or Supabase's verified claims. Null
 * without a session. Once per request (React cache).
 */
export const signedIn = cache(async (): Promise<SignedIn | null> => {
  if (supabaseConfigured()) {
    const claims = await supabaseClaims(await jar());
    return claims ? { claims, version: null, renew: false } : null;
  }
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const session = token ? await verifySessionToken(token) : null;
  if (!session) return null;
  const renew = Date.now() / 1000 - session.issuedAt > SESSION_RENEW_AFTER_SECONDS;
  return { claims: session.claims, version: session.version, renew };
});

/**
 * In the caller's transaction, as the service (auth.users is the service's): the session's
 * version is still the account's (a password change or "sign out everywhere" raised it).
 */
export async function sessionCurrent(db: Db, session: SignedIn): Promise<boolean> {
  if (session.version === null) return true;
  return sessionVersionMatches(db, session.claims.sub, session.version);
}

/** After the check, where cookies may be written: a session due for renewal gets a new token. */
export async function renewIfDue(session: SignedIn): Promise<void> {
  if (session.renew && session.version !== null) await renewSession(session.claims, session.version);
}

/** Sliding renewal: possible where cookies may be written (actions, route handlers). */
async function renewSession(claims: Claims, version: number): Promise<void> {
  try {
    await startLocalSession(
      { id: claims.sub, email: claims.email ?? "", sessionVersion: version },
      { aal: claims.aal ?? "aal1", amr: claims.amr ?? [] },
    );
  } catch {
    // A server component cannot set cookies; the member's next action renews the session.
  }
}

/**
 * Local provider: issue the session cookie for a user whose password (and, with two-factor,
 * code) was checked; `assurance` says how (a password just now when omitted).
 */
export async function startLocalSession(
  user: { id: string; email: string; sessionVersion: number },
  assurance?: SessionAssurance,
): Promise<void> {
  (await cookies()).set(
    SESSION_COOKIE,
    await signSessionToken(user, assurance),
    cookieOptions(SESSION_TTL_SECONDS),
  );
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

/** Local provider: the password was right and the account has a second factor; the code is due. */
export async function startPendingSignIn(pending: PendingSignIn): Promise<void> {
  (await cookies()).set(
    PENDING_SIGN_IN_COOKIE,
    await signPendingSignIn(pending),
    cookieOptions(PENDING_SIGN_IN_SECONDS),
  );
}

export async function pendingSignIn(): Promise<PendingSignIn | null> {
  return readPendingSignIn((await cookies()).get(PENDING_SIGN_IN_COOKIE)?.value);
}

export async function endPendingSignIn(): Promise<void> {
  (await cookies()).delete(PENDING_SIGN_IN_COOKIE);
}
