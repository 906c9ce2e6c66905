import { Secret, TOTP } from "otpauth";

/**
 * TOTP as RFC 6238 and every authenticator app read it: SHA-1, 6 digits, 30-second steps
 * (otpauth, docs/decisions.md "A second factor"). A code is
 * accepted one step either side of now, for clocks that drift.
 */
export const TOTP_PERIOD_SECONDS = 30;
const TOTP_WINDOW = 1;
const ISSUER = "CRM";

/** A new random secret (160 bits, RFC 4226's recommendation), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, label = "") {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** The otpauth:// URI the QR code carries (Google Authenticator's key URI format). */
export function totpUri(secret: string, accountName: string): string {
  return totp(secret, accountName).toString();
}

/** The code for `secret` at `timestamp` (ms): tests, and nothing else, generate codes. */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return totp(secret).generate({ timestamp });
}

/** Six digits, spaces allowed (apps show "123 456"). */
export const looksLikeTotpCode = (code: string) => /^\d{6}$/.test(code.replace(/\s/g, ""));

/**
 * The time step (counter) `code` belongs to when it is valid for `secret` now, else null. The
 * caller refuses a step not later than the last one accepted: a code is good once.
 */
export function acceptedStep(secret: string, code: string, timestamp = Date.now()): number | null {
  const token = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp(secret).validate({ token, timestamp, window: TOTP_WINDOW });
  if (delta === null) return null;
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp }) + delta;
}
