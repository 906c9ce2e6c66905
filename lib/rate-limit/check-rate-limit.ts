import type { Db } from "@/lib/db/doors";
import { log } from "@/lib/observability/log";

export interface RateLimitResult {
  allowed: boolean;
  /** seconds until the oldest hit in the window expires; 0 when allowed */
  retryAfterSeconds: number;
}

/** Spec 4.2.1: a form submission is limited per form and per IP (requests without one share a bucket). */
export function formRateLimitKey(formId: string, ip: string | null): string {
  return `form:${formId}:${ip ?? "unknown"}`;
}

/**
 * Spec 4.2.1: asks `public.check_rate_limit` whether one more request under `key` fits
 * (`limit` per `windowSeconds`, sliding). The call runs in a savepoint: if the function
 * errors, the error is logged and the request is allowed (fail-open), and the caller's
 * transaction carries on. The function holds a per-key advisory lock until the caller's
 * transaction ends, and a rolled-back transaction takes its hit back: call it in a short
 * transaction of its own (docs/decisions.md).
 */
export async function checkRateLimit(
  db: Db,
  key: string,
  limit = 5,
  windowSeconds = 60,
): Promise<RateLimitResult> {
  try {
    const [row] = await db.savepoint(
      (sp) => sp`
        select allowed, retry_after_seconds
        from public.check_rate_limit(${key}, ${limit}::int, ${windowSeconds}::int)`,
    );
    return { allowed: row.allowed as boolean, retryAfterSeconds: row.retry_after_seconds as number };
  } catch (error) {
    log.error({ err: error, key }, "check_rate_limit failed; the request is allowed (fail-open, spec 4.2.1)");
    return { allowed: true, retryAfterSeconds: 0 };
  }
}
