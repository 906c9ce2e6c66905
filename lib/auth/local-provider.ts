import bcrypt from "bcryptjs";
import type { Db } from "@/lib/db/doors";
import { refused, type Refused } from "@/lib/errors/app-error";
import type { SignInInput } from "./schemas";

export type AuthResult =
  | {
      data: {
        userId: string;
        email: string;
        workspaceId?: string;
        sessionVersion?: number;
        /** the account has a second factor: the password alone yields only a pending sign-in */
        secondFactor?: boolean;
      };
    }
  | Refused;

const BCRYPT_ROUNDS = 10;
// Compared against when the email is unknown, so both failures take the same time.
const DUMMY_HASH = bcrypt.hashSync("not-a-real-password", BCRYPT_ROUNDS);

export const INVALID_CREDENTIALS = "The email or password is incorrect.";
export const EMAIL_TAKEN = "An account with this email already exists. Sign in instead.";

/** Emails are case-insensitive: stored and compared trimmed and lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_ROUNDS);
}

/** Checks a password against a stored hash; a missing hash costs the same and fails. */
export async function passwordMatches(password: string, hash: string | null | undefined): Promise<boolean> {
  const ok = await bcrypt.compare(password, hash ?? DUMMY_HASH);
  return ok && Boolean(hash);
}

/**
 * Local provider: users live in auth.users with a bcrypt hash. Only an account whose
 * address was confirmed (email_confirmed_at, Supabase's column) signs in; every refusal
 * reads the same. The session carries the account's session_version.
 */
export async function signInLocal(db: Db, input: SignInInput): Promise<AuthResult> {
  const email = normalizeEmail(input.email);
  const [user] = await db`
    select u.id, u.email, u.encrypted_password, u.email_confirmed_at, u.session_version,
      exists (select 1 from public.user_two_factor f where f.user_id = u.id and f.enabled_at is not null)
        as second_factor
    from auth.users u where u.email = ${email}`;
  const ok = await passwordMatches(input.password, user?.encrypted_password);
  if (!user || !ok || !user.email_confirmed_at) return refused("unauthenticated", INVALID_CREDENTIALS);
  return {
    data: {
      userId: user.id,
      email: user.email,
      sessionVersion: user.session_version,
      secondFactor: user.second_factor,
    },
  };
}

/**
 * Creates a confirmed user with a password: the demo seed and tests, whose addresses
 * need no proof. People create their own accounts through sign-up.
 */
export async function createLocalUser(db: Db, email: string, password: string): Promise<string> {
  const hash = await hashPassword(password);
  const [user] = await db`
    insert into auth.users (email, encrypted_password, email_confirmed_at)
    values (${normalizeEmail(email)}, ${hash}, now())
    on conflict (email) do update set email = excluded.email
    returning id`;
  return user.id;
}
