import { createHash, timingSafeEqual } from "node:crypto";

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match ? match[1] : null;
}

/**
 * Machine callers of the admin routes present SERVICE_API_KEY (docs/decisions.md, "Payment backfills"),
 * compared in constant time (on digests, so lengths never leak); refused when unset or short.
 */
export function serviceKeyMatches(token: string): boolean {
  const expected = process.env.SERVICE_API_KEY;
  if (!expected || expected.length < 16) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(token), digest(expected));
}
