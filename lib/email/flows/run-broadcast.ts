import { withService } from "@/lib/db/doors";
import { done, retry, type JobOutcome } from "@/lib/jobs/outcome";
import {
  BROADCAST_BATCH_SIZE,
  claimBroadcastBatch,
  deliverBroadcastBatch,
  recordBroadcastDelivery,
} from "../send-broadcast";
import { resendClient } from "../resend-client";
import { startScheduledBroadcast } from "../schedule-broadcast";

/**
 * Rows claimed per transaction on the dev outbox, where storing a row is delivering it
 * (BROADCAST_OUTBOX_BATCH_ROWS; 2,000 measured best in `npm run bench -- jobs`).
 */
const outboxBatchSize = () => Number(process.env.BROADCAST_OUTBOX_BATCH_ROWS) || 2000;
/** Resend batch calls in flight at once, each of BROADCAST_BATCH_SIZE emails (its maximum). */
const RESEND_PARALLEL_CALLS = 4;

/**
 * The broadcast job (docs/decisions.md, "Broadcasts"): claims, delivers and records batch after batch, each
 * phase in its own short transaction with the delivery between them, until the audience is done or the
 * broadcast is paused or cancelled (read from the database before every batch). Exactly once
 * per contact does not depend on this loop: the unique (broadcast_id, contact_id) key refuses
 * a second row, so a rerun after a crash, or a second worker on the same broadcast, sends
 * nothing twice. A scheduled job (`scheduledAt`) first moves its broadcast from 'scheduled' to
 * 'sending', or ends at once when the broadcast was rescheduled or unscheduled. `signal` aborts
 * between batches (the worker is stopping): `retry`, and the job carries on where it stopped.
 */
export async function runBroadcast(
  input: { workspaceId: string; broadcastId: string; scheduledAt?: string },
  signal?: AbortSignal,
  options: { lastAttempt?: boolean } = {},
): Promise<JobOutcome<{ batches: number; notDue?: true }>> {
  // a scheduled job starts its broadcast only if it is still scheduled for this job's time
  if (
    input.scheduledAt &&
    !(await withService((db) => startScheduledBroadcast(db, { ...input, scheduledAt: input.scheduledAt! })))
  )
    return done({ batches: 0, notDue: true });
  const batchSize = resendClient() ? BROADCAST_BATCH_SIZE * RESEND_PARALLEL_CALLS : outboxBatchSize();
  let batches = 0;
  for (;;) {
    if (signal?.aborted)
      return retry(
        "unavailable",
        "The worker stopped between batches; the broadcast carries on when retried.",
      );
    const claim = await withService((db) => claimBroadcastBatch(db, { ...input, batchSize }));
    if ("error" in claim) return done({ batches }); // deleted meanwhile: nothing left to do
    if (claim.queued.length) {
      // In id order, in chunks of Resend's maximum: a rerun re-forms the same chunks from the
      // rows still 'queued' (only a claim's last chunk is short), so each keeps its idempotency key.
      const queued = [...claim.queued].sort((a, b) => (a.id < b.id ? -1 : 1));
      const chunks = Array.from({ length: Math.ceil(queued.length / BROADCAST_BATCH_SIZE) }, (_, i) =>
        queued.slice(i * BROADCAST_BATCH_SIZE, (i + 1) * BROADCAST_BATCH_SIZE),
      );
      const deliveries = await Promise.all(
        chunks.map((chunk) => deliverBroadcastBatch(input.broadcastId, chunk)),
      );
      // Resend refused or did not answer a chunk: its rows stay 'queued' and the attempt ends in
      // `retry`, so the engine retries with backoff and the next run sends those rows first, under
      // the same idempotency key. On the last attempt they are recorded 'failed' and the send goes on.
      const failed = deliveries.find((d) => "error" in d);
      const recorded = options.lastAttempt ? deliveries : deliveries.filter((d) => !("error" in d));
      if (recorded.length)
        await withService(async (db) => {
          for (const delivery of recorded) await recordBroadcastDelivery(db, delivery);
        });
      if (failed && "error" in failed && !options.lastAttempt)
        return retry("provider_failed", `Resend: ${failed.error}`);
    }
    batches += 1;
    if (claim.stopped) return done({ batches });
  }
}
