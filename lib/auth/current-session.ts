import type { Claims, Db } from "@/lib/db/doors";
import { SESSION_RENEW_AFTER_SECONDS, verifySessionToken } from "./tokens";

/**
 * A local session token's claims while it is valid: signed, unexpired, and carrying the
 * account's current session_version (docs/decisions.md, "Sessions": a password change or reset and "sign out
 * everywhere" raise it, which ends every older session). `renew` says it is due for a
 * new token (sliding renewal).
 */
export async function currentSession(
  db: Db,
  token: string,
): Promise<{ claims: Claims; version: number; renew: boolean } | null> {
  const session = await verifySessionToken(token);
  if (!session) return null;
  if (!(await sessionVersionMatches(db, session.claims.sub, session.version))) return null;
  const renew = Date.now() / 1000 - session.issuedAt > SESSION_RENEW_AFTER_SECONDS;
  return { claims: session.claims, version: session.version, renew };
}

/** The account exists and its session_version is `version` (as the service: auth.users is its own). */
export async function sessionVersionMatches(db: Db, userId: string, version: number): Promise<boolean> {
  const [user] = await db`select session_version from auth.users where id = ${userId}`;
  return Boolean(user) && user.session_version === version;
}
