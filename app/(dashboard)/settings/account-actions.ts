"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getClaims, endSession, startLocalSession } from "@/lib/auth/session";
import { changePassword, signOutEverywhere } from "@/lib/auth/change-password";
import { limitAttempt } from "@/lib/auth/flows/limit-attempt";
import { TOO_MANY_ATTEMPTS } from "@/lib/auth/rate-limits";
import { changePasswordSchema } from "@/lib/auth/schemas";
import { supabaseConfigured } from "@/lib/auth/supabase-provider";
import { signOutEverywhereSupabase, updatePasswordSupabase } from "@/lib/auth/supabase-actions";
import { withService } from "@/lib/db/doors";
import { clientIp } from "@/lib/http/client-ip";
import { errorState, fieldErrors, type FormState } from "@/lib/http/form-state";

/**
 * Issue 13: a signed-in user changes their password with the current one (counted as a
 * sign-in attempt: it is one). Every other session ends; this one carries on.
 */
export async function changePasswordAction(_prev: FormState, form: FormData): Promise<FormState> {
  const claims = await getClaims();
  if (!claims) redirect("/sign-in");
  const parsed = changePasswordSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { errors: fieldErrors(parsed.error) };
  if (!(await limitAttempt("signIn", { ip: clientIp(await headers()), account: claims.email ?? claims.sub })))
    return { message: TOO_MANY_ATTEMPTS };
  if (supabaseConfigured()) {
    const ok = await updatePasswordSupabase(parsed.data.newPassword, {
      email: claims.email ?? "",
      password: parsed.data.currentPassword,
    });
    return ok
      ? { success: "Your password was changed." }
      : { errors: { currentPassword: "Your current password is not correct." } };
  }
  const result = await withService((db) => changePassword(db, { userId: claims.sub, ...parsed.data }));
  if ("error" in result) return errorState(result, { fields: ["currentPassword"] });
  await startLocalSession({
    id: claims.sub,
    email: result.data.email,
    sessionVersion: result.data.sessionVersion,
  });
  return { success: "Your password was changed. Every other session was signed out." };
}

/** Every session of the account ends, this one too. */
export async function signOutEverywhereAction(): Promise<void> {
  const claims = await getClaims();
  if (!claims) redirect("/sign-in");
  if (supabaseConfigured()) await signOutEverywhereSupabase();
  else await withService((db) => signOutEverywhere(db, { userId: claims.sub }));
  await endSession();
  redirect("/sign-in");
}
