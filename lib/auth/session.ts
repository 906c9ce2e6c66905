import "server-only";
import { cookies } from "next/headers";
import type { Claims } from "@/lib/db/doors";
import { isHttps } from "@/lib/config";
import { supabaseClaims, supabaseClient, supabaseConfigured, type CookieJar } from "./supabase-provider";
import { SESSION_TTL_SECONDS, signSessionToken, verifySessionToken } from "./tokens";

export const SESSION_COOKIE = "crm_session";

async function jar(): Promise<CookieJar> {
  const store = await cookies();
  return {
    getAll: () => store.getAll(),
    setAll: (list) => list.forEach(({ name, value, options }) => store.set(name, value, options)),
  };
}

/** The signed-in member's claims from whichever provider is configured, or null. */
export async function getClaims(): Promise<Claims | null> {
  if (supabaseConfigured()) return supabaseClaims(await jar());
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  return token ? verifySessionToken(token) : null;
}

/** Local provider: issue the session cookie for a user whose password was checked. */
export async function startLocalSession(user: { id: string; email: string }): Promise<void> {
  (await cookies()).set(SESSION_COOKIE, await signSessionToken(user), {
    httpOnly: true,
    sameSite: "lax",
    secure: isHttps(),
    path: "/",
    maxAge: SESSION_TTL_SECONDS,
  });
}

export async function endSession(): Promise<void> {
  if (supabaseConfigured()) await supabaseClient(await jar()).auth.signOut();
  const store = await cookies();
  store.delete(SESSION_COOKIE);
  store.delete(WORKSPACE_COOKIE);
}

export const WORKSPACE_COOKIE = "crm_workspace";
