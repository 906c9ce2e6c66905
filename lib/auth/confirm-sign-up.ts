import type { Db } from "@/lib/db/doors";
import { refused } from "@/lib/errors/app-error";
import { createAccountRows } from "./create-account";
import { linkDigest, looksLikeLinkToken } from "./account-links";
import { EMAIL_TAKEN, passwordMatches, type AuthResult } from "./local-provider";

export const SIGN_UP_LINK_INVALID =
  "This link is not valid any more: it has expired or was used already. Sign up again to get a new one.";
export const SIGN_UP_PASSWORD_WRONG = "That is not the password chosen when this link was requested.";

interface PendingAccount {
  passwordHash: string;
  firstName: string;
  lastName: string;
  workspaceName: string;
  timezone: string;
}

/** The address an open sign-up link confirms, for its page; null when the link is not open. */
export async function findSignUpLink(db: Db, token: string): Promise<{ email: string } | null> {
  if (!looksLikeLinkToken(token)) return null;
  const [link] = await db<{ email: string }[]>`
    select email from public.account_tokens
    where token_hash = ${linkDigest(token)} and purpose = 'sign_up' and used_at is null and expires_at > now()`;
  return link ?? null;
}

/**
 * Local sign-up, step 2: the link's owner proves the address, and the password chosen at
 * sign-up proves they are who asked for it (whoever else signs up with the same address
 * gets a link of their own, whose password they alone know). Then the confirmed user, the
 * profile and their own workspace are created, and every open sign-up link of the
 * address is spent. An account that was never confirmed (made before confirmation
 * existed, or by another provider) is taken over by the proven owner; a confirmed one is
 * left alone.
 */
export async function confirmSignUp(db: Db, input: { token: string; password: string }): Promise<AuthResult> {
  if (!looksLikeLinkToken(input.token)) return refused("not_found", SIGN_UP_LINK_INVALID);
  const [link] = await db<{ email: string; data: PendingAccount }[]>`
    select email, data from public.account_tokens
    where token_hash = ${linkDigest(input.token)} and purpose = 'sign_up' and used_at is null and expires_at > now()
    for update`;
  if (!link) return refused("not_found", SIGN_UP_LINK_INVALID);
  if (!(await passwordMatches(input.password, link.data.passwordHash)))
    return refused("invalid", SIGN_UP_PASSWORD_WRONG);

  // every open sign-up link of the address is spent, and drops its password hash
  await db`update public.account_tokens set used_at = now(), data = '{}'
           where email = ${link.email} and purpose = 'sign_up' and used_at is null`;
  const [user] = await db`
    insert into auth.users (email, encrypted_password, email_confirmed_at)
    values (${link.email}, ${link.data.passwordHash}, now())
    on conflict (email) do update
      set encrypted_password = excluded.encrypted_password, email_confirmed_at = now(),
          session_version = auth.users.session_version + 1, updated_at = now()
      where auth.users.email_confirmed_at is null
    returning id, session_version`;
  if (!user) return refused("conflict", EMAIL_TAKEN);
  const { workspaceId } = await createAccountRows(db, {
    userId: user.id,
    email: link.email,
    firstName: link.data.firstName,
    lastName: link.data.lastName,
    workspaceName: link.data.workspaceName,
    timezone: link.data.timezone,
  });
  return { data: { userId: user.id, email: link.email, workspaceId, sessionVersion: user.session_version } };
}
