import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A fresh secret for Eventbrite's endpoint, 256 random bits (docs/decisions.md, "The ticketing webhook"). */
export function generateWebhookSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** What ticketing_connections.webhook_secret_hash keeps: the lowercase hex SHA-256. */
export function hashWebhookSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

// compared against when the connection is unknown or has no digest, so every refusal costs the same
const NO_DIGEST = "0".repeat(64);

/**
 * Whether `secret` is the one whose digest is `digest`, in constant time. A missing secret or
 * digest never matches (the comparison still runs).
 */
export function webhookSecretMatches(secret: string | null, digest: string | null): boolean {
  const expected = Buffer.from(digest && /^[0-9a-f]{64}$/.test(digest) ? digest : NO_DIGEST, "hex");
  const actual = Buffer.from(hashWebhookSecret(secret ?? ""), "hex");
  return timingSafeEqual(expected, actual) && Boolean(secret) && Boolean(digest);
}
