import { vi } from "vitest";
import type { Claims } from "@/lib/db/doors";

/**
 * Run before every integration test file (vitest `setupFiles`): Next's request scope is replaced
 * for all of them, so a server action or cookie-authenticated route can be called outside a
 * request. Files share a worker's loaded modules (vitest.config.ts), so the replacement is the
 * same for every file, registered before any of them imports the app: `server-only` is empty,
 * revalidatePath and refresh do nothing, there are no cookies (those set are kept in `issued`), and the request headers, signed-in
 * member and session are whatever `signIn` (tests/helpers/member-session.ts) last set in this
 * file; until it is called, lib/auth/session answers as itself.
 */
export interface TestSession {
  signedIn: boolean;
  claims: Claims | null;
  headers: Headers;
  /** the cookies the code under test set, by name (a reissued session's token, to sign in with) */
  issued: Map<string, string>;
}

const session = vi.hoisted(() => {
  // one object for the worker: a mocked module made for an earlier file keeps reading it
  const shared = globalThis as { testSession?: TestSession };
  const fresh = () => ({ signedIn: false, claims: null, headers: new Headers(), issued: new Map() });
  shared.testSession ??= fresh();
  Object.assign(shared.testSession, fresh());
  return shared.testSession;
});

vi.mock("server-only", () => ({}));
vi.mock("next/cache", () => ({ revalidatePath: () => {}, refresh: () => {} }));
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: () => undefined,
    set: (name: string, value: string) => void session.issued.set(name, value),
    delete: () => {},
    getAll: () => [],
  }),
  headers: async () => session.headers,
}));
vi.mock("@/lib/auth/session", async (original) => {
  const actual = await original<typeof import("@/lib/auth/session")>();
  return {
    ...actual,
    getClaims: async () => (session.signedIn ? session.claims : actual.getClaims()),
    signedIn: async () =>
      session.signedIn
        ? session.claims && { claims: session.claims, version: null, renew: false }
        : actual.signedIn(),
  };
});
