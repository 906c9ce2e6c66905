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
  const [user] = await db`select session_version from auth.users where id = ${session.claims.sub}`;
  if (!user || user.session_version !== session.version) return null;
  const renew = Date.now() / 1000 - session.issuedAt > SESSION_RENEW_AFTER_SECONDS;
  return { claims: session.claims, version: session.version, renew };
}
