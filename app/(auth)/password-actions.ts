"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { withService } from "@/lib/db/doors";
import { confirmSignUpFlow, requestResetFlow } from "@/lib/auth/flows/account-flows";
import { afterAnswer } from "@/lib/auth/flows/after-answer";
import { requestPasswordReset, resetPassword, resetSent } from "@/lib/auth/reset-password";
import { confirmSignUpSchema, requestResetSchema, resetPasswordSchema } from "@/lib/auth/schemas";
import { chooseWorkspace, startLocalSession } from "@/lib/auth/session";
import { supabaseConfigured } from "@/lib/auth/supabase-provider";
import { requestResetSupabase, updatePasswordSupabase } from "@/lib/auth/supabase-actions";
import { clientIp } from "@/lib/http/client-ip";
import { fieldErrors, type FormState } from "@/lib/http/form-state";

const ip = async () => clientIp(await headers());

/** Opening the sign-up link with the chosen password creates the account and signs in. */
export async function confirmSignUpAction(_prev: FormState, form: FormData): Promise<FormState> {
  const parsed = confirmSignUpSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { errors: fieldErrors(parsed.error) };
  const result = await confirmSignUpFlow(parsed.data, await ip());
  if ("error" in result) return { message: result.error };
  const { userId, email, sessionVersion, workspaceId } = result.data;
  await startLocalSession({ id: userId, email, sessionVersion: sessionVersion ?? 0 });
  if (workspaceId) await chooseWorkspace(workspaceId);
  redirect("/");
}

/** The same answer whether or not the address has an account (issue 13: no enumeration). */
export async function requestResetAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = { email: String(form.get("email") ?? "") };
  const parsed = requestResetSchema.safeParse(values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  const result = await requestResetFlow(
    parsed.data,
    await ip(),
    supabaseConfigured()
      ? requestResetSupabase
      : async (email) =>
          afterAnswer("password reset", () => withService((db) => requestPasswordReset(db, { email }))),
  );
  if ("error" in result) return { message: result.error, values };
  return { success: resetSent(parsed.data.email) };
}

/** A new password from a reset link (local), or after Supabase's recovery link signed the user in. */
export async function resetPasswordAction(_prev: FormState, form: FormData): Promise<FormState> {
  const raw = Object.fromEntries(form);
  if (supabaseConfigured()) {
    const parsed = resetPasswordSchema.safeParse({ ...raw, token: "supabase-session" });
    if (!parsed.success) return { errors: fieldErrors(parsed.error) };
    if (!(await updatePasswordSupabase(parsed.data.password)))
      return { message: "The password could not be changed. Ask for a new link." };
    redirect("/");
  }
  const parsed = resetPasswordSchema.safeParse(raw);
  if (!parsed.success) return { errors: fieldErrors(parsed.error) };
  const result = await withService((db) => resetPassword(db, parsed.data));
  if ("error" in result) return { message: result.error };
  redirect("/sign-in?reset=1");
}
