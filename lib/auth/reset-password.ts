import type { Db } from "@/lib/db/doors";
import { refused } from "@/lib/errors/app-error";
import { resetPasswordEmail, sendAccountEmail } from "./account-emails";
import { linkDigest, looksLikeLinkToken, newLinkToken, RESET_LINK_MINUTES } from "./account-links";
import { hashPassword, normalizeEmail, type AuthResult } from "./local-provider";
import { sweepAccountTokens } from "./sweep-account-tokens";

export const resetSent = (email: string) =>
  `If ${email} has an account, we sent it a link to choose a new password. Open it within ${RESET_LINK_MINUTES} minutes.`;
export const RESET_LINK_INVALID =
  "This link is not valid any more: it has expired or was used already. Ask for a new one.";

/**
 * Password reset, step 1: an account with this address gets a single-use link (digest
 * stored, RESET_LINK_MINUTES to live); the answer is the same for an unknown address.
 */
export async function requestPasswordReset(
  db: Db,
  input: { email: string },
): Promise<{ data: { email: string } }> {
  const email = normalizeEmail(input.email);
  const [user] = await db`select id from auth.users where email = ${email}`;
  await sweepAccountTokens(db);
  if (user) {
    const { token, digest } = newLinkToken();
    await db`
      insert into public.account_tokens (purpose, email, user_id, token_hash, expires_at)
      values ('reset_password', ${email}, ${user.id}, ${digest}, now() + make_interval(mins => ${RESET_LINK_MINUTES}))`;
    await sendAccountEmail(db, email, resetPasswordEmail(token), token);
  }
  return { data: { email } };
}

/** Whether a reset link is open, for its page. */
export async function resetLinkOpen(db: Db, token: string): Promise<boolean> {
  if (!looksLikeLinkToken(token)) return false;
  const [link] = await db`
    select 1 from public.account_tokens
    where token_hash = ${linkDigest(token)} and purpose = 'reset_password' and used_at is null and expires_at > now()`;
  return Boolean(link);
}

/**
 * Password reset, step 2: the link's owner sets a new password. Opening the link proves the
 * address, so it also confirms it; every session of the account ends (session_version) and
 * every open reset link of the account is spent.
 */
export async function resetPassword(db: Db, input: { token: string; password: string }): Promise<AuthResult> {
  if (!looksLikeLinkToken(input.token)) return refused("not_found", RESET_LINK_INVALID);
  const [link] = await db`
    select user_id from public.account_tokens
    where token_hash = ${linkDigest(input.token)} and purpose = 'reset_password' and used_at is null
      and expires_at > now() and user_id is not null
    for update`;
  if (!link) return refused("not_found", RESET_LINK_INVALID);
  const hash = await hashPassword(input.password);
  const [user] = await db`
    update auth.users
    set encrypted_password = ${hash}, email_confirmed_at = coalesce(email_confirmed_at, now()),
        session_version = session_version + 1, updated_at = now()
    where id = ${link.user_id}
    returning id, email, session_version`;
  await db`update public.account_tokens set used_at = now()
           where user_id = ${link.user_id} and purpose = 'reset_password' and used_at is null`;
  return { data: { userId: user.id, email: user.email, sessionVersion: user.session_version } };
}
