import { appUrl, isHttps } from "@/lib/config";
import { withService } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { createAccountRows } from "../create-account";
import { signValue, verifyValue } from "../tokens";
import { INVALID_CREDENTIALS, type AuthResult } from "../local-provider";
import type { SignInInput, SignUpInput } from "../schemas";
import { supabaseClient, type CookieJar } from "../supabase-provider";

/**
 * Supabase Auth's own confirmation, recovery and session revocation, when it is configured
 * (docs/decisions.md, "Supabase Auth behind the same interface"). Each takes the request's cookie jar
 * (lib/auth/supabase-actions.ts passes Next's), where @supabase/ssr keeps the session.
 */

/** Where Supabase's confirmation and recovery emails lead (their templates link to it). */
const confirmUrl = (next: string) => `${appUrl()}/auth/confirm?next=${encodeURIComponent(next)}`;

/**
 * Sign-up with Supabase's email confirmation. The names and the workspace name travel in the
 * user's metadata; the profile and the owned workspace are created when the address is
 * confirmed (/auth/confirm). Supabase answers an existing address as it answers a new one
 * (no enumeration); so does this.
 */
export async function signUpSupabase(
  jar: CookieJar,
  input: SignUpInput,
): Promise<Result<{ email: string; signedIn?: boolean }>> {
  const { data, error } = await supabaseClient(jar).auth.signUp({
    email: input.email,
    password: input.password,
    options: {
      emailRedirectTo: confirmUrl("/"),
      data: { first_name: input.firstName, last_name: input.lastName, workspace_name: input.workspaceName },
    },
  });
  if (error && error.code !== "user_already_exists")
    return refused("provider_failed", "The account could not be created. Try again.");
  // A project with email confirmation turned off signs the user in at once (not recommended).
  if (data.session && data.user) {
    const user = data.user;
    await withService((db) => createAccountRows(db, { userId: user.id, ...input }));
    return { data: { email: input.email, signedIn: true } };
  }
  return { data: { email: input.email } };
}

export async function signInSupabase(jar: CookieJar, input: SignInInput): Promise<AuthResult> {
  const { data, error } = await supabaseClient(jar).auth.signInWithPassword(input);
  if (error || !data.user) return refused("unauthenticated", INVALID_CREDENTIALS);
  return { data: { userId: data.user.id, email: input.email } };
}

/** Supabase's recovery email; the answer never says whether the address has an account. */
export async function requestResetSupabase(jar: CookieJar, email: string): Promise<void> {
  await supabaseClient(jar).auth.resetPasswordForEmail(email, { redirectTo: confirmUrl("/reset-password") });
}

/**
 * /auth/confirm: verifies the token_hash of a Supabase confirmation or recovery email,
 * which signs the user in; a newly confirmed user gets their profile and own workspace.
 */
export async function confirmSupabase(
  jar: CookieJar,
  tokenHash: string,
  type: "email" | "signup" | "recovery",
): Promise<boolean> {
  const { data, error } = await supabaseClient(jar).auth.verifyOtp({ token_hash: tokenHash, type });
  if (error || !data.user) return false;
  const user = data.user;
  if (type === "recovery") {
    await grantRecovery(jar, user.id);
    return true;
  }
  const meta = user.user_metadata ?? {};
  await withService(async (db) => {
    const [profile] = await db`select 1 from public.user_profiles where id = ${user.id}`;
    if (!profile)
      await createAccountRows(db, {
        userId: user.id,
        email: user.email ?? "",
        firstName: String(meta.first_name ?? ""),
        lastName: String(meta.last_name ?? ""),
        workspaceName: String(meta.workspace_name || "My workspace"),
      });
  });
  return true;
}

/** The cookie that proves this browser opened the user's recovery link, a few minutes ago. */
export const RECOVERY_GRANT_COOKIE = "recovery_grant";
const RECOVERY_GRANT_SECONDS = 15 * 60;

/**
 * Opening a recovery link signs the user in; a session alone is no proof of the inbox (any
 * session would do, a stolen one too). So the link also leaves a signed, short-lived, one-use
 * grant for that user, and a new password without the current one needs it (docs/decisions.md,
 * "Stored HTML and secret links").
 */
async function grantRecovery(jar: CookieJar, userId: string): Promise<void> {
  const value = await signValue("recovery", { sub: userId }, RECOVERY_GRANT_SECONDS);
  jar.setAll([
    {
      name: RECOVERY_GRANT_COOKIE,
      value,
      options: {
        httpOnly: true,
        sameSite: "lax",
        secure: isHttps(),
        path: "/",
        maxAge: RECOVERY_GRANT_SECONDS,
      },
    },
  ]);
}

export type PasswordUpdate = { userId: string; email: string } | null;

/**
 * A new password for the signed-in Supabase user: with the current one (re-authenticated with
 * signInWithPassword), or after a recovery link opened in this browser for this same user (the
 * grant is spent). Every other session ends. Answers who changed it, or null.
 */
export async function updatePasswordSupabase(
  jar: CookieJar,
  password: string,
  current?: { email: string; password: string },
): Promise<PasswordUpdate> {
  const supabase = supabaseClient(jar);
  if (current) {
    if ((await supabase.auth.signInWithPassword(current)).error) return null;
  } else {
    const grant = jar.getAll().find((c) => c.name === RECOVERY_GRANT_COOKIE)?.value;
    const granted = grant ? await verifyValue<{ sub: string }>("recovery", grant) : null;
    jar.setAll([{ name: RECOVERY_GRANT_COOKIE, value: "", options: { path: "/", maxAge: 0 } }]);
    const { data } = await supabase.auth.getUser();
    if (!granted || !data.user || data.user.id !== granted.sub) return null;
  }
  const { data, error } = await supabase.auth.updateUser({ password });
  if (error || !data.user) return null;
  // Supabase keeps the other sessions after a password change: end them too.
  await supabase.auth.signOut({ scope: "others" });
  return { userId: data.user.id, email: data.user.email ?? "" };
}

/** Supabase revokes every refresh token of the user. */
export async function signOutEverywhereSupabase(jar: CookieJar): Promise<void> {
  await supabaseClient(jar).auth.signOut({ scope: "global" });
}
