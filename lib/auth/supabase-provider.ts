import { createServerClient } from "@supabase/ssr";
import type { AuthMethod, Claims } from "@/lib/db/doors";

export interface CookieJar {
  getAll(): { name: string; value: string }[];
  setAll(cookies: { name: string; value: string; options?: Record<string, unknown> }[]): void;
}

export function supabaseConfigured(): boolean {
  return Boolean(process.env.NEXT_PUBLIC_SUPABASE_URL && process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY);
}

/**
 * The app never uses Supabase Realtime, but supabase-js builds its client anyway and, without
 * a transport, demands Node's global WebSocket, which Node 20 lacks ("native WebSocket not
 * found": every Supabase call failed there). A transport that refuses to open is enough.
 */
class NoRealtime {
  constructor() {
    throw new Error("Supabase Realtime is not used by this app");
  }
}

/** Supabase Auth through @supabase/ssr: its session cookies, its users. */
export function supabaseClient(jar: CookieJar) {
  return createServerClient(
    process.env.NEXT_PUBLIC_SUPABASE_URL!,
    process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY!,
    {
      realtime: { transport: NoRealtime as never },
      cookies: {
        getAll: () => jar.getAll(),
        setAll: (cookies) => {
          try {
            jar.setAll(cookies);
          } catch {
            // Server components cannot set cookies; the next action or route refreshes them.
          }
        },
      },
    },
  );
}

/**
 * The signed-in user (checked with Supabase: getUser) and the session's assurance level and
 * methods (getAuthenticatorAssuranceLevel reads them from the session's own JWT). A session
 * signed in with the password alone while the account has a verified factor is not a session
 * yet: null, and the sign-in page sends it to the code.
 */
export async function supabaseClaims(jar: CookieJar): Promise<Claims | null> {
  const supabase = supabaseClient(jar);
  const { data } = await supabase.auth.getUser();
  if (!data.user) return null;
  const { data: level } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
  if (level?.nextLevel === "aal2" && level.currentLevel !== "aal2") return null;
  return {
    sub: data.user.id,
    role: "authenticated",
    email: data.user.email ?? undefined,
    aal: level?.currentLevel === "aal2" ? "aal2" : "aal1",
    amr: authMethods(level?.currentAuthenticationMethods ?? []),
  };
}

/** Supabase's `amr` (entries with timestamps, or bare RFC 8176 names without one) as ours. */
function authMethods(entries: readonly (string | { method: string; timestamp: number })[]): AuthMethod[] {
  return entries.flatMap((entry) =>
    typeof entry === "string" ? [] : [{ method: entry.method, timestamp: entry.timestamp }],
  );
}
