import { jwtVerify, SignJWT } from "jose";
import type { AuthMethod, Claims } from "@/lib/db/doors";
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

/** How a session was authenticated: its assurance level and methods (Supabase's `aal`, `amr`). */
export interface SessionAssurance {
  aal: "aal1" | "aal2";
  amr: AuthMethod[];
}

/** A session from a password just checked: aal1, one password entry dated now. */
export const passwordAssurance = (): SessionAssurance => ({
  aal: "aal1",
  amr: [{ method: "password", timestamp: Math.floor(Date.now() / 1000) }],
});

/**
 * A local session: an HS256 JWT with the same claims Supabase Auth issues (`aal` and `amr`
 * included), plus its version.
 */
export async function signSessionToken(
  user: { id: string; email: string; sessionVersion: number },
  assurance: SessionAssurance = passwordAssurance(),
): Promise<string> {
  return new SignJWT({
    role: "authenticated",
    email: user.email,
    sv: user.sessionVersion,
    aal: assurance.aal,
    amr: assurance.amr,
  })
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
        ...readAssurance(payload, payload.iat ?? 0),
      },
      version: payload.sv as number,
      issuedAt: payload.iat ?? 0,
    };
  } catch {
    return null;
  }
}

/** A token's `aal` and `amr`; one signed before they existed counts as a password sign-in at `iat`. */
function readAssurance(payload: Record<string, unknown>, issuedAt: number): SessionAssurance {
  const amr = Array.isArray(payload.amr)
    ? payload.amr.filter(
        (entry): entry is AuthMethod =>
          typeof entry?.method === "string" && Number.isFinite(entry?.timestamp),
      )
    : [{ method: "password", timestamp: issuedAt }];
  return { aal: payload.aal === "aal2" ? "aal2" : "aal1", amr };
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
