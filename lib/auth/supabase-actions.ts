import "server-only";
import { cookies } from "next/headers";
import * as flows from "./flows/supabase";
import * as mfa from "./flows/supabase-mfa";
import type { SignInInput, SignUpInput } from "./schemas";
import { supabaseClient, type CookieJar } from "./supabase-provider";

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

/** Supabase's MFA (lib/auth/flows/supabase-mfa.ts), with the request's cookies. */
export const secondStepPendingSupabase = async () => mfa.secondStepPendingSupabase(await jar());
export const hasFactorSupabase = async () => mfa.hasFactorSupabase(await jar());
export const verifyCodeSupabase = async (code: string) => mfa.verifyCodeSupabase(await jar(), code);
export const startEnrolmentSupabase = async () => mfa.startEnrolmentSupabase(await jar());
export const confirmEnrolmentSupabase = async (factorId: string, code: string) =>
  mfa.confirmEnrolmentSupabase(await jar(), factorId, code);
export const disableSupabase = async (code: string) => mfa.disableSupabase(await jar(), code);
export const passwordAgainSupabase = async (email: string, password: string) =>
  mfa.passwordAgainSupabase(await jar(), email, password);
/** The Supabase user of this browser's session (aal1 or aal2), for counting and auditing attempts. */
export const sessionUserSupabase = async () => {
  const { data } = await supabaseClient(await jar()).auth.getUser();
  return data.user ? { id: data.user.id, email: data.user.email ?? null } : null;
};
