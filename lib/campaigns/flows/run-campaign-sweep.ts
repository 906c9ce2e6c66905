import { withService } from "@/lib/db/doors";
import { done, retry, type JobOutcome } from "@/lib/jobs/outcome";
import { log } from "@/lib/observability/log";
import { campaignEmailsWaiting } from "../campaign-delivery";
import { completeReachedGoals, exitFirstDue, kickDelivery, runDueBatch } from "../run-enrollments";
import { enrollSegmentEntrants, runBulkEnrollChunk } from "../segment-enrollment";

/**
 * Enrollments claimed per transaction (CAMPAIGN_BATCH_SIZE, docs/configuration.md): each batch
 * is one transaction holding its steps' effects and the enrollments' advance.
 */
const batchSize = () => Number(process.env.CAMPAIGN_BATCH_SIZE) || 500;

/**
 * The 'campaign-sweep' job (docs/decisions.md, "Campaign waits as a due-time index"): completes
 * the enrollments whose goal was reached and exits those due to leave, starts the delivery of queued
 * emails no run holds, enrolls the contacts who entered a campaign's segment and runs the chunks of a
 * one-off segment enrollment (docs/decisions.md, "Campaign enrollment from a segment"), each chunk in
 * its own transaction, then runs the due enrollments batch after batch, each batch in its own
 * transaction, until none is due. `signal` aborts between batches (the worker
 * is stopping): `retry`, and the next run carries on.
 */
export async function runCampaignSweep(
  signal?: AbortSignal,
): Promise<JobOutcome<{ enrollments: number; goals: number }>> {
  const goals = await withService((db) => completeReachedGoals(db));
  // queued emails left by a delivery past its last attempt (or a kick lost) are started again
  await withService(async (db) => {
    if (await campaignEmailsWaiting(db)) await kickDelivery(db);
  });
  await withService((db) => enrollSegmentEntrants(db));
  while (await withService((db) => runBulkEnrollChunk(db))) {
    if (signal?.aborted)
      return retry("unavailable", "The worker stopped between chunks; the sweep carries on.");
  }
  const size = batchSize();
  let enrollments = 0;
  for (;;) {
    if (signal?.aborted)
      return retry("unavailable", "The worker stopped between batches; the sweep carries on.");
    let claimed: number;
    try {
      claimed = await withService((db) => runDueBatch(db, { batchSize: size }));
    } catch (error) {
      // The batch rolled back. One enrollment at a time finds the one whose step fails: it leaves
      // with the error, and the rest continue (a database that is down fails here too: retry).
      const isolated = await isolate(error);
      enrollments += isolated;
      if (isolated > 0) continue;
      return done({ enrollments, goals });
    }
    enrollments += claimed;
    if (claimed < size) return done({ enrollments, goals });
  }
}

/** Runs due enrollments one per transaction until one fails, which then exits with its error. */
async function isolate(batchError: unknown): Promise<number> {
  log.warn({ err: batchError }, "campaigns: a batch failed; running its enrollments one by one");
  let ran = 0;
  for (;;) {
    try {
      const one = await withService((db) => runDueBatch(db, { batchSize: 1 }));
      if (one === 0) return ran;
      ran += 1;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!(await withService((db) => exitFirstDue(db, message)))) return ran;
      return ran + 1;
    }
  }
}
