import { createHash, timingSafeEqual } from "node:crypto";
import { bearerToken } from "@/lib/auth/service-key";

/**
 * `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time on digests. Never matches
 * when METRICS_TOKEN is unset or shorter than 16 characters: the endpoint is then off.
 */
export function metricsTokenMatches(headers: Headers): boolean {
  const expected = process.env.METRICS_TOKEN;
  const token = bearerToken(headers.get("authorization"));
  if (!expected || expected.length < 16 || !token) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(token), digest(expected));
}
