import { randomBytes } from "node:crypto";
import { AuthAdminApi } from "@supabase/supabase-js";
import { withService } from "@/lib/db/doors";
import { appUrl } from "@/lib/config";
import { hashPassword, normalizeEmail } from "./local-provider";
import { supabaseConfigured } from "./supabase-provider";

export type Provisioned =
  { userId: string; created: boolean; temporaryPassword?: string; invited?: boolean } | { error: string };

/**
 * Makes an account (auth user and profile) for an email that has none, so that an admin
 * can add the person as a member. A system operation: it runs outside the member's
 * transaction, with the service identity or the auth provider's admin API.
 */
export interface AccountProvisioner {
  provision(email: string): Promise<Provisioned>;
  /** Undoes an account made by provision() whose membership could not be added. */
  discard(userId: string): Promise<void>;
}

export const SIGN_UP_FIRST =
  "There is no account with this email yet. Ask the person to sign up first, then add them here.";

/** 16 characters of base64url: 96 random bits. */
export function temporaryPassword(): string {
  return randomBytes(12).toString("base64url");
}

/** A profile row for an account; the membership references it. */
async function ensureProfile(userId: string, email: string): Promise<void> {
  await withService(
    (db) =>
      db`insert into public.user_profiles (id, email) values (${userId}, ${email}) on conflict (id) do nothing`,
  );
}

/** Local provider: a user in auth.users with a random temporary password, shown once. */
export const localAccounts: AccountProvisioner = {
  async provision(rawEmail) {
    const email = normalizeEmail(rawEmail);
    const password = temporaryPassword();
    const hash = await hashPassword(password);
    return withService(async (db) => {
      const [created] = await db`
        insert into auth.users (email, encrypted_password) values (${email}, ${hash})
        on conflict (email) do nothing
        returning id`;
      // An auth user without a profile (made outside sign-up) keeps its own password.
      const [existing] = created ? [created] : await db`select id from auth.users where email = ${email}`;
      await db`insert into public.user_profiles (id, email) values (${existing.id}, ${email})
               on conflict (id) do nothing`;
      return created
        ? { userId: created.id, created: true, temporaryPassword: password }
        : { userId: existing.id, created: false };
    });
  },
  async discard(userId) {
    await withService((db) => db`delete from auth.users where id = ${userId}`);
  },
};

/** Supabase Auth with the service role key: auth.admin.inviteUserByEmail sends the invitation. */
export function supabaseAccounts(url: string, serviceRoleKey: string): AccountProvisioner {
  // The admin API alone (what createClient().auth.admin is), without the realtime client.
  const admin = () =>
    new AuthAdminApi({
      url: `${url.replace(/\/+$/, "")}/auth/v1`,
      headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` },
    });
  return {
    async provision(rawEmail) {
      const email = normalizeEmail(rawEmail);
      const { data, error } = await admin().inviteUserByEmail(email, { redirectTo: `${appUrl()}/sign-in` });
      if (error || !data.user)
        return { error: `The invitation could not be sent${error?.message ? `: ${error.message}` : "."}` };
      await ensureProfile(data.user.id, email);
      return { userId: data.user.id, created: true, invited: true };
    },
    async discard(userId) {
      await admin().deleteUser(userId);
    },
  };
}

/** Supabase without a service role key: nobody can create accounts for others. */
export const signUpFirst: AccountProvisioner = {
  async provision() {
    return { error: SIGN_UP_FIRST };
  },
  async discard() {},
};

/** The provisioner for the configured auth provider. */
export function accountProvisioner(): AccountProvisioner {
  if (!supabaseConfigured()) return localAccounts;
  const key = process.env.SUPABASE_SERVICE_ROLE_KEY;
  return key ? supabaseAccounts(process.env.NEXT_PUBLIC_SUPABASE_URL!, key) : signUpFirst;
}
