import type { Db } from "@/lib/db/doors";
import { existingAccountEmail, sendAccountEmail, signUpEmail } from "./account-emails";
import { newLinkToken, SIGN_UP_LINK_HOURS } from "./account-links";
import { hashPassword, normalizeEmail } from "./local-provider";
import type { SignUpInput } from "./schemas";
import { sweepAccountTokens } from "./sweep-account-tokens";

/** What sign-up answers, the same whether or not the address has an account. */
export const signUpSent = (email: string) =>
  `Check your inbox: we sent a link to ${email}. Open it within ${SIGN_UP_LINK_HOURS} hours to confirm your address and finish creating your account.`;

/**
 * Local sign-up, step 1 (docs/decisions.md, "Sign-up by emailed link"): nothing is created but a single-use
 * link. The pending account (bcrypt hash, names, workspace name) waits in account_tokens until
 * the link is opened with the same password (confirmSignUp), so nobody holds an account
 * for an address whose mail they cannot read. An address that already has an account gets
 * an email saying so instead; the answer is the same either way (no account enumeration),
 * and the bcrypt hash is computed in both cases so their timing matches too.
 */
export async function requestSignUp(
  db: Db,
  input: SignUpInput & { timezone?: string },
): Promise<{ data: { email: string } }> {
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  await sweepAccountTokens(db);
  const [existing] =
    await db`select id from auth.users where email = ${email} and email_confirmed_at is not null`;
  if (existing) {
    await sendAccountEmail(db, email, existingAccountEmail());
    return { data: { email } };
  }
  const { token, digest } = newLinkToken();
  const pending = {
    passwordHash,
    firstName: input.firstName ?? "",
    lastName: input.lastName ?? "",
    workspaceName: input.workspaceName,
    timezone: input.timezone ?? "UTC",
  };
  await db`
    insert into public.account_tokens (purpose, email, token_hash, data, expires_at)
    values ('sign_up', ${email}, ${digest}, ${db.json(pending)},
            now() + make_interval(hours => ${SIGN_UP_LINK_HOURS}))`;
  await sendAccountEmail(db, email, signUpEmail(token), token);
  return { data: { email } };
}
