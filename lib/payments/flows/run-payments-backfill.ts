import { done, retry, type JobOutcome } from "@/lib/jobs/outcome";
import { log as logger } from "@/lib/observability/log";
import { stripeClient } from "../stripe-client";
import { backfillPaymentIntents, type BackfillDeps } from "./backfill-payment-intents";
import { backfillRefunds } from "./backfill-refunds";
import type { RetryOptions } from "../stripe-retry";

/** Patient, for a run nobody waits on in a request: six attempts, 1 s doubling to 30 s. */
export const PATIENT_RETRY: RetryOptions = { attempts: 6, baseDelayMs: 1000, maxDelayMs: 30_000 };

export interface PaymentsBackfillInput {
  workspaceId: string;
  /** only refunds created at or after / at or before (Unix seconds) */
  since?: number;
  until?: number;
  /** resume the refund pages after this refund id */
  startingAfter?: string;
  /** rows or refunds per request, 1 to 100 */
  batch: number;
}

export type PaymentsBackfillOutcome =
  | { done: true }
  /** `cursor`: the last refund page reached, to resume from; `thrown`: an error, not a refusal */
  | { done: false; error: string; cursor?: string; thrown: boolean };

/**
 * Spec 4.12: the payment-intent backfill until nothing is left, the refund backfill to the last
 * page, then the payment-intent backfill again, as the service identity. Every step can be
 * repeated, so a run that stopped is continued by running it again. Reports each pass and page
 * through `log`; the CLI (lib/payments/backfill-cli.ts) and the 'payments-backfill' job both run
 * this.
 */
export async function runPaymentsBackfill(
  deps: BackfillDeps & { log: (line: string) => void },
  input: PaymentsBackfillInput,
): Promise<PaymentsBackfillOutcome> {
  const { log } = deps;
  const { workspaceId, batch } = input;
  const retry: RetryOptions = {
    ...(deps.retry ?? PATIENT_RETRY),
    onRetry: ({ attempt, delayMs, reason }) =>
      log(`  Stripe: ${reason}; retrying in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt})`),
  };
  const run = { ...deps, retry };
  let cursor = input.startingAfter;
  const stopped = (error: string, thrown = false): PaymentsBackfillOutcome => {
    log(thrown ? `Failed: ${error}` : `  ${error}`);
    return { done: false, error, cursor, thrown };
  };

  const drainIntents = async (phase: string): Promise<string | null> => {
    log(`${phase}: payment intents`);
    for (let pass = 1; ; pass++) {
      const result = await backfillPaymentIntents(run, { workspaceId, limit: batch });
      if ("error" in result) return result.error.message;
      const { processed, outcomes: o, remaining } = result.data;
      log(
        `  pass ${pass}: ${processed} rows (${o.intent} intent, ${o.none} none, ${o.error_fetching} error_fetching, ` +
          `${o.invalid_format} invalid_format); ${remaining} remaining`,
      );
      if (remaining === 0) return null;
      if (processed === 0) return "no progress; stopping";
    }
  };

  try {
    const first = await drainIntents("Phase 1 of 3");
    if (first) return stopped(first);
    log("Phase 2 of 3: refunds");
    for (let page = 1; ; page++) {
      const result = await backfillRefunds(run, {
        workspaceId,
        since: input.since,
        until: input.until,
        startingAfter: cursor,
        limit: batch,
      });
      if ("error" in result) return stopped(result.error.message);
      const { refunds, charges, applied: a, nextCursor } = result.data;
      log(
        `  page ${page}: ${refunds} refunds, ${charges} charges (tier 1: ${a.tier1}, tier 2: ${a.tier2}, ` +
          `unchanged: ${a.unchanged}, unmatched: ${a.unmatched})${nextCursor ? `; next cursor ${nextCursor}` : ""}`,
      );
      if (!nextCursor) break;
      cursor = nextCursor;
    }
    const third = await drainIntents("Phase 3 of 3");
    if (third) return stopped(third);
    log("Done.");
    return { done: true };
  } catch (error) {
    return stopped((error as Error).message, true);
  }
}

/**
 * The 'payments-backfill' job: the whole backfill of one workspace, its progress in the log. A run
 * that stopped is `retry`: every step can be repeated, so the next attempt continues it.
 */
export async function paymentsBackfillJob(workspaceId: string): Promise<JobOutcome<{ done: true }>> {
  const report = (line: string) => logger.info({ workspaceId }, `payments backfill: ${line}`);
  const outcome = await runPaymentsBackfill(
    { stripe: stripeClient(), log: report },
    { workspaceId, batch: 100 },
  );
  if (outcome.done) return done({ done: true });
  return retry(outcome.thrown ? "internal" : "provider_failed", outcome.error);
}
