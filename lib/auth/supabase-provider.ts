import { createServerClient } from "@supabase/ssr";
import type { Claims } from "@/lib/db/doors";

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

export async function supabaseClaims(jar: CookieJar): Promise<Claims | null> {
  const { data } = await supabaseClient(jar).auth.getUser();
  if (!data.user) return null;
  return { sub: data.user.id, role: "authenticated", email: data.user.email ?? undefined };
}
