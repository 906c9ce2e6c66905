import { withService } from "@/lib/db/doors";
import { done, retry, type JobOutcome } from "@/lib/jobs/outcome";
import { completeReachedGoals, runDueBatch } from "../run-enrollments";

/**
 * Enrollments claimed per transaction (CAMPAIGN_BATCH_SIZE, docs/configuration.md): each batch
 * is one transaction holding its steps' effects and the enrollments' advance.
 */
const batchSize = () => Number(process.env.CAMPAIGN_BATCH_SIZE) || 500;

/**
 * The 'campaign-sweep' job (docs/decisions.md, "Campaign waits as a due-time index"): completes
 * the enrollments whose goal was reached, then runs the due enrollments batch after batch, each
 * batch in its own transaction, until none is due. `signal` aborts between batches (the worker
 * is stopping): `retry`, and the next run carries on.
 */
export async function runCampaignSweep(
  signal?: AbortSignal,
): Promise<JobOutcome<{ enrollments: number; goals: number }>> {
  const goals = await withService((db) => completeReachedGoals(db));
  const size = batchSize();
  let enrollments = 0;
  for (;;) {
    if (signal?.aborted)
      return retry("unavailable", "The worker stopped between batches; the sweep carries on.");
    const claimed = await withService((db) => runDueBatch(db, { batchSize: size }));
    enrollments += claimed;
    if (claimed < size) return done({ enrollments, goals });
  }
}
