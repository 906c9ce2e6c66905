import type { Db } from "@/lib/db/doors";

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** Spec 4.2.1: the rate-limit key of a form submission, per form per IP. */
export function formRateLimitKey(formId: string, ip: string | null): string {
  return `form:${formId}:${ip ?? "unknown"}`;
}

/**
 * Calls the database function check_rate_limit. Spec 4.2.1: if it errors the request is
 * allowed (fail-open). It runs in a savepoint so a failure does not abort the caller's
 * transaction. Call it in its own short transaction: the function holds a per-key advisory
 * lock until the transaction ends, and a rolled-back transaction takes its hit back.
 */
export async function checkRateLimit(
  db: Db,
  key: string,
  limit = 5,
  windowSeconds = 60,
): Promise<RateLimitResult> {
  try {
    const [row] = await db.savepoint(
      (sp) =>
        sp`select allowed, retry_after_seconds from public.check_rate_limit(${key}, ${limit}, ${windowSeconds})`,
    );
    return { allowed: row.allowed, retryAfterSeconds: row.retry_after_seconds };
  } catch (error) {
    console.error("rate-limit check failed; allowing the request (fail-open)", error);
    return { allowed: true, retryAfterSeconds: 0 };
  }
}
