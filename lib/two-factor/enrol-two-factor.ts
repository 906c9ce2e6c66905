import QRCode from "qrcode";
import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { openSecret, sealSecret } from "@/lib/crypto/secret-box";
import { replaceRecoveryCodes } from "./recovery-codes";
import { acceptedStep, newTotpSecret, totpUri } from "./totp";
import { CODE_NOT_VALID, verifySecondFactor } from "./verify-second-factor";

export const ALREADY_ENABLED = "Two-factor authentication is already on for this account.";
export const NO_ENROLMENT = "Start the set-up again: scan the new QR code, then enter its code.";

export interface Enrolment {
  /** the base32 secret, for typing into an app by hand */
  secret: string;
  uri: string;
  /** the QR code as an SVG data: URL, made here: the secret never leaves for a QR service */
  qrCode: string;
}

/**
 * Step 1 of enrolment: a new secret, sealed and kept (not yet enabled), and what the app
 * needs to show it. Starting again replaces a pending secret, never an enabled one.
 */
export async function startEnrolment(
  db: Db,
  input: { userId: string; email: string },
): Promise<Result<Enrolment>> {
  const secret = newTotpSecret();
  const saved = await db`
    insert into public.user_two_factor (user_id, secret_sealed) values (${input.userId}, ${sealSecret(secret)})
    on conflict (user_id) do update
      set secret_sealed = excluded.secret_sealed, last_used_step = null, created_at = now()
      where public.user_two_factor.enabled_at is null
    returning user_id`;
  if (saved.length === 0) return refused("conflict", ALREADY_ENABLED);
  const uri = totpUri(secret, input.email);
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return {
    data: { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` },
  };
}

/**
 * Step 2: the first code from the app turns the factor on, makes the recovery codes (returned
 * once) and raises the session version, so every session signed in with the password alone
 * ends; the caller reissues its own at aal2.
 */
export async function confirmEnrolment(
  db: Db,
  input: { userId: string; code: string; now?: number },
): Promise<Result<{ recoveryCodes: string[]; sessionVersion: number; email: string }>> {
  const [pending] = await db`
    select secret_sealed from public.user_two_factor
    where user_id = ${input.userId} and enabled_at is null for update`;
  if (!pending) return refused("conflict", NO_ENROLMENT);
  const step = acceptedStep(openSecret(pending.secret_sealed), input.code, input.now);
  if (step === null) return refused("invalid", CODE_NOT_VALID, { field: "code" });
  await db`
    update public.user_two_factor set enabled_at = now(), last_used_step = ${step}
    where user_id = ${input.userId}`;
  const recoveryCodes = await replaceRecoveryCodes(db, input.userId);
  const [user] = await db`
    update auth.users set session_version = session_version + 1, updated_at = now()
    where id = ${input.userId} returning session_version, email`;
  return { data: { recoveryCodes, sessionVersion: user.session_version, email: user.email } };
}

/**
 * Turning the factor off takes a valid code (TOTP or recovery): a stolen session alone cannot
 * remove it. The secret and the codes are deleted; other sessions end.
 */
export async function disableTwoFactor(
  db: Db,
  input: { userId: string; code: string; now?: number },
): Promise<Result<{ sessionVersion: number; email: string }>> {
  const verified = await verifySecondFactor(db, input);
  if ("error" in verified) return verified;
  await db`delete from public.user_recovery_codes where user_id = ${input.userId}`;
  await db`delete from public.user_two_factor where user_id = ${input.userId}`;
  const [user] = await db`
    update auth.users set session_version = session_version + 1, updated_at = now()
    where id = ${input.userId} returning session_version, email`;
  return { data: { sessionVersion: user.session_version, email: user.email } };
}

/** New recovery codes (the old ones stop working), after a valid code. */
export async function regenerateRecoveryCodes(
  db: Db,
  input: { userId: string; code: string; now?: number },
): Promise<Result<{ recoveryCodes: string[] }>> {
  const verified = await verifySecondFactor(db, input);
  if ("error" in verified) return verified;
  return { data: { recoveryCodes: await replaceRecoveryCodes(db, input.userId) } };
}

/** What the account security page shows. */
export async function twoFactorStatus(
  db: Db,
  userId: string,
): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
  const [row] = await db`
    select (f.enabled_at is not null) as enabled,
      (select count(*)::int from public.user_recovery_codes c where c.user_id = ${userId} and c.used_at is null) as left
    from (select 1) one left join public.user_two_factor f on f.user_id = ${userId}`;
  return { enabled: Boolean(row?.enabled), recoveryCodesLeft: row?.left ?? 0 };
}
