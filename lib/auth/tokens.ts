import { jwtVerify, SignJWT } from "jose";
import type { Claims } from "@/lib/db/doors";
import { authSecret } from "./secret";

export const SESSION_TTL_SECONDS = 60 * 60 * 24 * 14;

/** A local session: an HS256 JWT with the same claims Supabase Auth issues. */
export async function signSessionToken(user: { id: string; email: string }): Promise<string> {
  return new SignJWT({ role: "authenticated", email: user.email })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(authSecret());
}

export async function verifySessionToken(token: string): Promise<Claims | null> {
  try {
    const { payload } = await jwtVerify(token, authSecret(), { algorithms: ["HS256"] });
    if (typeof payload.sub !== "string" || payload.role !== "authenticated") return null;
    return {
      sub: payload.sub,
      role: "authenticated",
      email: payload.email as string | undefined,
      exp: payload.exp,
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
