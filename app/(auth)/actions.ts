"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { safeNextPath } from "@/lib/auth/account-links";
import { signInFlow, signUpFlow } from "@/lib/auth/flows/account-flows";
import { INVALID_CREDENTIALS } from "@/lib/auth/local-provider";
import { afterAnswer } from "@/lib/auth/flows/after-answer";
import { requestSignUp, signUpSent } from "@/lib/auth/request-sign-up";
import { withService } from "@/lib/db/doors";
import { signInSchema, signUpSchema } from "@/lib/auth/schemas";
import { endSession, startLocalSession } from "@/lib/auth/session";
import { supabaseConfigured } from "@/lib/auth/supabase-provider";
import { signInSupabase, signUpSupabase } from "@/lib/auth/supabase-actions";
import { clientIp } from "@/lib/http/client-ip";
import { fieldErrors, type FormState } from "@/lib/http/form-state";

/** Issue 13, attack 6: every sign-in attempt counts, per IP and per account, before bcrypt runs. */
export async function signInAction(_prev: FormState, form: FormData): Promise<FormState> {
  const next = safeNextPath(form.get("next")) ?? "/";
  const parsed = signInSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return { errors: fieldErrors(parsed.error), values: { email: String(form.get("email") ?? "") } };
  const values = { email: parsed.data.email };
  const ip = clientIp(await headers());
  const result = await signInFlow(parsed.data, ip, supabaseConfigured() ? signInSupabase : undefined);
  if ("error" in result) return { message: result.error ?? INVALID_CREDENTIALS, values };
  if (!supabaseConfigured())
    await startLocalSession({
      id: result.data.userId,
      email: result.data.email,
      sessionVersion: result.data.sessionVersion ?? 0,
    });
  redirect(next);
}

/**
 * Sign-up sends a confirmation link and answers the same whether or not the address has
 * an account (issue 13: no pre-claimed accounts, no enumeration).
 */
export async function signUpAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = Object.fromEntries(form) as Record<string, string>;
  delete values.password;
  const parsed = signUpSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  const ip = clientIp(await headers());
  // local: the link is made and sent after answering, so known and unknown addresses take the same time
  type Answer = Awaited<ReturnType<typeof signUpSupabase>>;
  const local = async (input: typeof parsed.data): Promise<Answer> => {
    afterAnswer("sign-up", () => withService((db) => requestSignUp(db, input)));
    return { data: { email: input.email } };
  };
  const result = await signUpFlow<Answer>(parsed.data, ip, supabaseConfigured() ? signUpSupabase : local);
  if ("error" in result) return { message: result.error, values };
  if ("signedIn" in result.data && result.data.signedIn) redirect("/");
  return { success: signUpSent(result.data.email) };
}

export async function signOutAction(): Promise<void> {
  await endSession();
  redirect("/sign-in");
}
