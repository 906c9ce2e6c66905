import { createHash, randomInt } from "node:crypto";
import type { Db } from "@/lib/db/doors";

/**
 * One-time recovery codes: ten, shown once, stored as SHA-256 digests, each good once. Ten
 * characters from an alphabet without look-alikes (31 symbols: about 50 bits), which the
 * attempt limit on codes makes far beyond guessing.
 */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A code as typed (any case, with or without its dash or spaces) as its digest. */
export function recoveryCodeDigest(code: string): string {
  const normalised = code.toLowerCase().replace(/[^a-z0-9]/g, "");
  return createHash("sha256").update(normalised).digest("hex");
}

/** Replaces the account's recovery codes with a new set; the codes are returned once. */
export async function replaceRecoveryCodes(db: Db, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await db`delete from public.user_recovery_codes where user_id = ${userId}`;
  await db`
    insert into public.user_recovery_codes (user_id, code_digest)
    select ${userId}, unnest(${codes.map(recoveryCodeDigest)}::text[])`;
  return codes;
}

/** Marks one unused code used; false when there is no such unused code. */
export async function spendRecoveryCode(db: Db, userId: string, code: string): Promise<boolean> {
  const rows = await db`
    update public.user_recovery_codes set used_at = now()
    where user_id = ${userId} and code_digest = ${recoveryCodeDigest(code)} and used_at is null
    returning id`;
  return rows.length === 1;
}
