import { withService, type Db } from "@/lib/db/doors";
import { log } from "@/lib/observability/log";

/** Deletes limiter hits older than an hour, at most 10,000 a call (see the migration). */
export async function sweepRateLimitHits(db: Db): Promise<number> {
  const [row] = await db`select public.sweep_rate_limit_hits() as deleted`;
  return row.deleted;
}

let submissions = 0;

/**
 * Every `every`-th submission this process sees starts a sweep in its own transaction, not
 * awaited: the request never waits for it, and a failure is only logged.
 */
export function sweepRateLimitHitsNowAndThen(every = 500): void {
  submissions += 1;
  if (submissions % every !== 0) return;
  withService(sweepRateLimitHits).catch((error) => log.error({ err: error }, "rate-limit sweep failed"));
}
