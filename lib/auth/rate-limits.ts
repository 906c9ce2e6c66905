import type { Db } from "@/lib/db/doors";
import { checkRateLimit } from "@/lib/rate-limit/check-rate-limit";

/**
 * docs/decisions.md, "Account rate limits": how many attempts each account action takes per client IP and per
 * account (the email, or the user id once signed in), as [limit, window in seconds]. Each
 * sign-in costs a bcrypt hash: 20 a minute per IP keeps one address far below what
 * saturates the CPU, and 20 a minute per account stops password guessing spread over many
 * addresses without letting a stranger lock an account for long. Sign-up and reset send
 * email: a few an hour per address stop them being used to flood someone's inbox.
 */
export const AUTH_LIMITS = {
  signIn: { perIp: [20, 60], perAccount: [20, 60] },
  signUp: { perIp: [20, 60], perAccount: [5, 3600] },
  reset: { perIp: [20, 60], perAccount: [5, 3600] },
  acceptInvitation: { perIp: [20, 60], perAccount: [20, 60] },
  // a code (second step, step-up, disable), asked only after the password: 5 tries per 15
  // minutes is 480 a day, each ~3 in a million (one step either side): ~0.14% a day
  secondFactor: { perIp: [20, 60], perAccount: [5, 900] },
} as const satisfies Record<
  string,
  { perIp: readonly [number, number]; perAccount: readonly [number, number] }
>;

export type AuthAction = keyof typeof AUTH_LIMITS;

/** The same words for every refusal, whatever the action and whether the account exists. */
export const TOO_MANY_ATTEMPTS = "Too many attempts. Wait a few minutes, then try again.";

/**
 * Counts one attempt of `action` against the client IP's and the account's buckets (in
 * public.check_rate_limit); true when both still have room. Call it in a short
 * transaction of its own, before the work it protects (lib/auth/flows/limit-attempt).
 */
export async function attemptAllowed(
  db: Db,
  action: AuthAction,
  who: { ip: string | null; account?: string | null },
): Promise<boolean> {
  const { perIp, perAccount } = AUTH_LIMITS[action];
  const byIp = await checkRateLimit(db, `auth:${action}:ip:${who.ip ?? "unknown"}`, ...perIp);
  if (!who.account) return byIp.allowed;
  const key = `auth:${action}:account:${who.account.trim().toLowerCase()}`;
  const byAccount = await checkRateLimit(db, key, ...perAccount);
  return byIp.allowed && byAccount.allowed;
}
