import { jwtVerify, SignJWT } from "jose";
import type { Claims } from "@/lib/db/doors";
import { authSecret } from "./secret";

/**
 * docs/decisions.md, "Sessions": a local session lives 7 days after it was last renewed; it is renewed (a new
 * token, same version) when a signed-in action or route sees it older than a day, so an
 * active member stays signed in and a stolen, idle cookie dies within a week. Revocation
 * is the session version (`sv`), checked against auth.users on every request.
 */
export const SESSION_TTL_SECONDS = 60 * 60 * 24 * 7;
export const SESSION_RENEW_AFTER_SECONDS = 60 * 60 * 24;

export interface SessionToken {
  claims: Claims;
  version: number;
  issuedAt: number;
}

/** A local session: an HS256 JWT with the same claims Supabase Auth issues, plus its version. */
export async function signSessionToken(user: {
  id: string;
  email: string;
  sessionVersion: number;
}): Promise<string> {
  return new SignJWT({ role: "authenticated", email: user.email, sv: user.sessionVersion })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(authSecret());
}

export async function verifySessionToken(token: string): Promise<SessionToken | null> {
  try {
    const { payload } = await jwtVerify(token, authSecret(), { algorithms: ["HS256"] });
    if (typeof payload.sub !== "string" || payload.role !== "authenticated") return null;
    // a token without a version predates session versions: it is refused, as if revoked
    if (!Number.isInteger(payload.sv) || payload.purpose !== undefined) return null;
    return {
      claims: {
        sub: payload.sub,
        role: "authenticated",
        email: payload.email as string | undefined,
        exp: payload.exp,
      },
      version: payload.sv as number,
      issuedAt: payload.iat ?? 0,
    };
  } catch {
    return null;
  }
}

/** Short-lived signed values (OAuth state and the like), bound to a purpose. */
export async function signValue(
  purpose: string,
  data: Record<string, unknown>,
  ttlSeconds = 600,
): Promise<string> {
  return new SignJWT({ ...data, purpose })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(authSecret());
}

export async function verifyValue<T extends Record<string, unknown>>(
  purpose: string,
  token: string,
): Promise<T | null> {
  try {
    const { payload } = await jwtVerify(token, authSecret(), { algorithms: ["HS256"] });
    return payload.purpose === purpose ? (payload as unknown as T) : null;
  } catch {
    return null;
  }
}
