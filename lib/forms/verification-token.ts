import { createHash, randomBytes } from "node:crypto";

/**
 * Verification tokens (spec 2.3, 4.3): 32 random bytes (256 bits), base64url, sent only in
 * the email. The database keeps their SHA-256 hex digest in pending_form_submissions.token,
 * so a leaked table yields no usable link.
 */
export function newVerificationToken(): { token: string; digest: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, digest: verificationDigest(token) };
}

export function verificationDigest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** The shape of a token this service issues; anything else is unknown without a query. */
export function looksLikeToken(value: string | null): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value);
}
