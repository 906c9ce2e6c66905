import { createHash, timingSafeEqual } from "node:crypto";

/**
 * DESIGN 5: machine callers of the admin routes send `Authorization: Bearer <SERVICE_API_KEY>`.
 * Compared in constant time (on digests, so lengths never leak); refused when the key is unset.
 */
export function hasServiceKey(headers: Headers): boolean {
  const expected = process.env.SERVICE_API_KEY;
  const given = headers.get("authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (!expected || !given) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
