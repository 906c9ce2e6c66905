import "server-only";
import { cookies } from "next/headers";
import * as flows from "./flows/supabase";
import type { SignInInput, SignUpInput } from "./schemas";
import type { CookieJar } from "./supabase-provider";

/** Next's cookies as the jar @supabase/ssr keeps its session in. */
async function jar(): Promise<CookieJar> {
  const store = await cookies();
  return {
    getAll: () => store.getAll(),
    setAll: (list) => list.forEach(({ name, value, options }) => store.set(name, value, options)),
  };
}

/** The Supabase flows of lib/auth/supabase-flows.ts, with the request's cookies. */
export const signUpSupabase = async (input: SignUpInput) => flows.signUpSupabase(await jar(), input);
export const signInSupabase = async (input: SignInInput) => flows.signInSupabase(await jar(), input);
export const requestResetSupabase = async (email: string) => flows.requestResetSupabase(await jar(), email);
export const confirmSupabase = async (tokenHash: string, type: "email" | "signup" | "recovery") =>
  flows.confirmSupabase(await jar(), tokenHash, type);
export const updatePasswordSupabase = async (
  password: string,
  current?: { email: string; password: string },
) => flows.updatePasswordSupabase(await jar(), password, current);
export const signOutEverywhereSupabase = async () => flows.signOutEverywhereSupabase(await jar());
