import type { Claims } from "@/lib/db/doors";
import type { TestSession } from "./session-mocks";

/**
 * For tests that call a server action or a cookie-authenticated route handler: the signed-in
 * member is whoever `signIn` names (lib/auth/session's getClaims and signedIn answer with them, as
 * tests/helpers/session-mocks.ts arranges for every integration file), there is no workspace
 * cookie (their first workspace is current), and revalidatePath and refresh are no-ops. Claims
 * without an `amr` are a session signed in with the password just now (fresh for step-up); pass
 * `amr` to model an older one.
 */
export function signIn(claims: Claims | null, headers: Record<string, string> = {}) {
  const session = (globalThis as { testSession?: TestSession }).testSession;
  if (!session) throw new Error("signIn needs tests/helpers/session-mocks.ts as a setup file");
  session.signedIn = true;
  session.claims =
    claims && !claims.amr
      ? { ...claims, amr: [{ method: "password", timestamp: Math.floor(Date.now() / 1000) }] }
      : claims;
  session.headers = new Headers(headers);
}

/**
 * The claims of the session cookie the code under test last issued (a sign-in, a step-up, a
 * password change reissuing this browser's session), as the app would read them back; null when
 * it issued none since the last call.
 */
export async function issuedClaims(): Promise<Claims | null> {
  const session = (globalThis as { testSession?: TestSession }).testSession!;
  const token = session.issued.get("crm_session");
  session.issued.delete("crm_session");
  if (!token) return null;
  const { verifySessionToken } = await import("@/lib/auth/tokens");
  return (await verifySessionToken(token))?.claims ?? null;
}
