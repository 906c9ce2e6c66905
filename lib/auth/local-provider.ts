import bcrypt from "bcryptjs";
import type { Db } from "@/lib/db/doors";
import { createAccountRows } from "./create-account";
import type { SignInInput, SignUpInput } from "./schemas";

export type AuthResult =
  { data: { userId: string; email: string; workspaceId?: string } } | { error: string };

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

/** Local provider: users live in auth.users with a bcrypt hash. */
export async function signUpLocal(db: Db, input: SignUpInput & { timezone?: string }): Promise<AuthResult> {
  const email = normalizeEmail(input.email);
  const hash = await hashPassword(input.password);
  const [user] = await db`
    insert into auth.users (email, encrypted_password) values (${email}, ${hash})
    on conflict (email) do nothing
    returning id`;
  if (!user) return { error: EMAIL_TAKEN };
  const { workspaceId } = await createAccountRows(db, { userId: user.id, ...input, email });
  return { data: { userId: user.id, email, workspaceId } };
}

export async function signInLocal(db: Db, input: SignInInput): Promise<AuthResult> {
  const email = normalizeEmail(input.email);
  const [user] = await db`select id, email, encrypted_password from auth.users where email = ${email}`;
  const ok = await bcrypt.compare(input.password, user?.encrypted_password ?? DUMMY_HASH);
  if (!user || !ok) return { error: INVALID_CREDENTIALS };
  return { data: { userId: user.id, email: user.email } };
}

/** Creates a user with a password (members added by email, the demo seed). */
export async function createLocalUser(db: Db, email: string, password: string): Promise<string> {
  const hash = await hashPassword(password);
  const [user] = await db`
    insert into auth.users (email, encrypted_password) values (${normalizeEmail(email)}, ${hash})
    on conflict (email) do update set email = excluded.email
    returning id`;
  return user.id;
}
