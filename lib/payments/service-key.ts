import { createHash, timingSafeEqual } from "node:crypto";

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match ? match[1] : null;
}

/**
 * DESIGN 5: machine callers of the backfill endpoints present SERVICE_API_KEY. Compared in
 * constant time (digests of equal length), and never accepted when the key is unset or short.
 */
export function serviceKeyMatches(token: string): boolean {
  const expected = process.env.SERVICE_API_KEY;
  if (!expected || expected.length < 16) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(token), digest(expected));
}
