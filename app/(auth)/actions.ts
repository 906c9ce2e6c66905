"use server";

import { redirect } from "next/navigation";
import { withService } from "@/lib/db/doors";
import { signInLocal, signUpLocal, EMAIL_TAKEN, INVALID_CREDENTIALS } from "@/lib/auth/local-provider";
import { signInSchema, signUpSchema } from "@/lib/auth/schemas";
import { endSession, startLocalSession } from "@/lib/auth/session";
import { supabaseConfigured } from "@/lib/auth/supabase-provider";
import { signInSupabase, signUpSupabase } from "@/lib/auth/supabase-actions";
import { fieldErrors, type FormState } from "@/lib/http/form-state";

export async function signInAction(_prev: FormState, form: FormData): Promise<FormState> {
  const parsed = signInSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return { errors: fieldErrors(parsed.error), values: { email: String(form.get("email") ?? "") } };
  const result = supabaseConfigured()
    ? await signInSupabase(parsed.data)
    : await withService((db) => signInLocal(db, parsed.data));
  if ("error" in result)
    return { message: result.error ?? INVALID_CREDENTIALS, values: { email: parsed.data.email } };
  if (!supabaseConfigured()) await startLocalSession({ id: result.data.userId, email: result.data.email });
  redirect("/");
}

export async function signUpAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = Object.fromEntries(form) as Record<string, string>;
  delete values.password;
  const parsed = signUpSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  const result = supabaseConfigured()
    ? await signUpSupabase(parsed.data)
    : await withService((db) => signUpLocal(db, parsed.data));
  if ("error" in result) return { message: result.error ?? EMAIL_TAKEN, values };
  if (!supabaseConfigured()) await startLocalSession({ id: result.data.userId, email: result.data.email });
  redirect("/");
}

export async function signOutAction(): Promise<void> {
  await endSession();
  redirect("/sign-in");
}
