import "server-only";
import { cookies } from "next/headers";
import { withService } from "@/lib/db/doors";
import { createAccountRows } from "./create-account";
import { EMAIL_TAKEN, INVALID_CREDENTIALS, type AuthResult } from "./local-provider";
import type { SignInInput, SignUpInput } from "./schemas";
import { supabaseClient } from "./supabase-provider";

async function client() {
  const store = await cookies();
  return supabaseClient({
    getAll: () => store.getAll(),
    setAll: (list) => list.forEach(({ name, value, options }) => store.set(name, value, options)),
  });
}

/** Supabase Auth sign-up; the profile and the owned workspace are created as the system. */
export async function signUpSupabase(input: SignUpInput): Promise<AuthResult> {
  const { data, error } = await (
    await client()
  ).auth.signUp({ email: input.email, password: input.password });
  if (error || !data.user)
    return { error: error?.code === "user_already_exists" ? EMAIL_TAKEN : (error?.message ?? EMAIL_TAKEN) };
  const user = data.user;
  const { workspaceId } = await withService((db) => createAccountRows(db, { userId: user.id, ...input }));
  return { data: { userId: user.id, email: input.email, workspaceId } };
}

export async function signInSupabase(input: SignInInput): Promise<AuthResult> {
  const { data, error } = await (await client()).auth.signInWithPassword(input);
  if (error || !data.user) return { error: INVALID_CREDENTIALS };
  return { data: { userId: data.user.id, email: input.email } };
}
