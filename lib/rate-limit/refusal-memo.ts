import type { RateLimitResult } from "./check-rate-limit";

/**
 * public.check_rate_limit does not count a refused request, so a key it refused stays refused until
 * its oldest hit leaves the window, the refusal's retry-after: until then this process may refuse
 * the key again without asking the database (docs/decisions.md, "Portal sessions": a flood of link
 * requests from one IP costs a refusal, not a transaction each). Another process asks the database
 * once and learns the same. Bounded: past MAX keys the memo starts again (the database still decides).
 */
const MAX = 10_000;
const refusedUntil = new Map<string, number>();

/** The refusal this process already knows for `key`, with the seconds left; null: ask the database. */
export function knownRefusal(key: string, now = Date.now()): RateLimitResult | null {
  const until = refusedUntil.get(key);
  if (until === undefined) return null;
  if (until <= now) {
    refusedUntil.delete(key);
    return null;
  }
  return { allowed: false, retryAfterSeconds: Math.ceil((until - now) / 1000) };
}

/** Keeps a refusal of the database until its retry-after; an allowed answer is not kept. */
export function rememberRefusal(key: string, result: RateLimitResult, now = Date.now()): void {
  if (result.allowed) return;
  if (refusedUntil.size >= MAX) refusedUntil.clear();
  refusedUntil.set(key, now + result.retryAfterSeconds * 1000);
}
