import { createHmac, timingSafeEqual } from "node:crypto";

/** Resend signs webhooks the Svix way; deliveries older or newer than this are refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export interface SvixHeaders {
  id: string | null;
  timestamp: string | null;
  signature: string | null;
}

function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
}

/** `v1,<base64 HMAC-SHA256 of "${id}.${timestamp}.${body}">`, as Svix writes it. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/**
 * Verifies a Resend (Svix) webhook: the svix-signature header holds one or more space-separated
 * `v1,<base64>` signatures, any of which may match (secret rotation); compared in constant time.
 * A timestamp more than five minutes from now is refused, so a captured delivery cannot be replayed later.
 */
export function verifyWebhook(
  secret: string,
  headers: SvixHeaders,
  body: string,
  now: Date = new Date(),
): VerifyResult {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return { ok: false, reason: "missing signature headers" };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "malformed timestamp" };
  const seconds = Number(timestamp);
  if (Math.abs(now.getTime() / 1000 - seconds) > WEBHOOK_TOLERANCE_SECONDS)
    return { ok: false, reason: "stale timestamp" };
  const expected = Buffer.from(signWebhook(secret, id, seconds, body).slice(3), "base64");
  const matches = signature.split(" ").some((part) => {
    const [version, value] = part.split(",", 2);
    if (version !== "v1" || !value) return false;
    const given = Buffer.from(value, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { ok: true } : { ok: false, reason: "signature mismatch" };
}
