import { vi } from "vitest";
import type { Claims } from "@/lib/db/doors";

/**
 * For tests that call a server action or a cookie-authenticated route handler: the signed-in
 * member is whoever `signIn` names (lib/auth/session's getClaims and signedIn are replaced), there is no
 * workspace cookie (their first workspace is current), and revalidatePath and refresh are no-ops.
 * Call at the top level of a test file, before importing the action or route. Claims without
 * an `amr` are a session signed in with the password just now (fresh for step-up); pass `amr`
 * to model an older one.
 */
const session = vi.hoisted(() => ({ claims: null as Claims | null, headers: new Headers() }));

vi.mock("server-only", () => ({}));
vi.mock("next/cache", () => ({ revalidatePath: () => {}, refresh: () => {} }));
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: () => undefined, set: () => {}, delete: () => {}, getAll: () => [] }),
  headers: async () => session.headers,
}));
vi.mock("@/lib/auth/session", async (original) => ({
  ...(await original<typeof import("@/lib/auth/session")>()),
  getClaims: async () => session.claims,
  signedIn: async () => session.claims && { claims: session.claims, version: null, renew: false },
}));

export function signIn(claims: Claims | null, headers: Record<string, string> = {}) {
  session.claims =
    claims && !claims.amr
      ? { ...claims, amr: [{ method: "password", timestamp: Math.floor(Date.now() / 1000) }] }
      : claims;
  session.headers = new Headers(headers);
}
