import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { openSecret } from "@/lib/crypto/secret-box";
import { spendRecoveryCode } from "./recovery-codes";
import { acceptedStep, looksLikeTotpCode } from "./totp";

/** The one answer to a wrong, used, expired or malformed code (every refusal reads the same). */
export const CODE_NOT_VALID =
  "That code is not valid. Enter the current code from your app, or a recovery code.";

export type SecondFactorMethod = "totp" | "recovery";
/** Its refusal is always `invalid`, CODE_NOT_VALID beside the code field. */
export type VerifyResult = Result<{ method: SecondFactorMethod }>;

/**
 * Checks a TOTP code or a recovery code against the account's enabled factor. A TOTP code is
 * accepted only for a time step later than the last one accepted (the row's update is the
 * check, so two concurrent uses of one code cannot both pass): a code seen once, by a
 * shoulder-surfer or a phishing proxy, cannot be replayed within its 30 seconds. A recovery
 * code is spent by using it.
 */
export async function verifySecondFactor(
  db: Db,
  input: { userId: string; code: string; now?: number },
): Promise<VerifyResult> {
  const refusal = refused("invalid", CODE_NOT_VALID, { field: "code" });
  const [factor] = await db`
    select secret_sealed from public.user_two_factor
    where user_id = ${input.userId} and enabled_at is not null`;
  if (!factor) return refusal;
  if (!looksLikeTotpCode(input.code))
    return (await spendRecoveryCode(db, input.userId, input.code))
      ? { data: { method: "recovery" } }
      : refusal;
  const step = acceptedStep(openSecret(factor.secret_sealed), input.code, input.now);
  if (step === null) return refusal;
  const accepted = await db`
    update public.user_two_factor set last_used_step = ${step}
    where user_id = ${input.userId} and (last_used_step is null or last_used_step < ${step})
    returning user_id`;
  return accepted.length === 1 ? { data: { method: "totp" } } : refusal;
}

/** Whether the account has an enabled second factor (local provider). */
export async function twoFactorEnabled(db: Db, userId: string): Promise<boolean> {
  const [row] = await db`
    select 1 from public.user_two_factor where user_id = ${userId} and enabled_at is not null`;
  return Boolean(row);
}
