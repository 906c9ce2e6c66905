import { withService } from "@/lib/db/doors";
import { done, retry, type JobOutcome } from "@/lib/jobs/outcome";
import {
  BROADCAST_BATCH_SIZE,
  claimBroadcastBatch,
  deliverBroadcastBatch,
  pauseBroadcastItself,
  recordBroadcastDelivery,
  releaseBroadcastRows,
} from "../send-broadcast";
import { pauseForReputation } from "../reputation";
import { resendClient } from "../resend-client";
import { senderFor } from "../sender";
import { startScheduledBroadcast } from "../schedule-broadcast";
import { loadAbTest, variantSenders } from "../ab-test";
import { endWarmupWait, reserveWarmup, returnWarmup, waitForNextWarmupDay } from "../warm-up";

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
  options: { lastAttempt?: boolean; runner?: string } = {},
): Promise<JobOutcome<{ batches: number; notDue?: true; paused?: true; waitingUntil?: string }>> {
  // a scheduled job starts its broadcast only if it is still scheduled for this job's time
  if (
    input.scheduledAt &&
    !(await withService((db) => startScheduledBroadcast(db, { ...input, scheduledAt: input.scheduledAt! })))
  )
    return done({ batches: 0, notDue: true });
  // who the mail is from: read once per run (a renamed workspace's next run sends in the new name)
  const sender = await withService((db) => senderFor(db, input.workspaceId, input.broadcastId));
  // an A/B broadcast's variants name their sender at the same address
  const variantFroms = variantSenders(
    (await withService((db) => loadAbTest(db, input)))?.variants ?? [],
    sender,
  );
  const batchSize = resendClient() ? BROADCAST_BATCH_SIZE * RESEND_PARALLEL_CALLS : outboxBatchSize();
  let batches = 0;
  for (;;) {
    if (signal?.aborted)
      return retry(
        "unavailable",
        "The worker stopped between batches; the broadcast carries on when retried.",
      );
    // the workspace's complaints and bounces are read again before every batch
    if (await withService((db) => pauseForReputation(db, input))) return done({ batches, paused: true });
    // A new sending domain's daily cap (lib/email/warm-up.ts): this batch claims only what is left
    // of today's; with nothing left the rest waits, queued, for the next UTC day.
    const now = new Date();
    const allowed = await withService((db) =>
      reserveWarmup(db, { workspaceId: input.workspaceId, sender, wanted: batchSize, now }),
    );
    if (allowed === 0)
      return done({ batches, ...(await withService((db) => waitForNextWarmupDay(db, input, now))) });
    const claim = await withService((db) =>
      claimBroadcastBatch(db, { ...input, batchSize: allowed ?? batchSize, runner: options.runner }),
    );
    if (allowed !== null)
      await withService(async (db) => {
        await returnWarmup(db, {
          sender,
          unused: allowed - ("error" in claim ? 0 : claim.queued.length),
          now,
        });
        if (batches === 0) await endWarmupWait(db, input);
      });
    if ("error" in claim) return done({ batches }); // deleted meanwhile: nothing left to do
    if (claim.queued.length) {
      // In id order, in chunks of Resend's maximum: a rerun re-forms the same chunks from the
      // rows still 'queued' (only a claim's last chunk is short), so each keeps its idempotency key.
      const queued = [...claim.queued].sort((a, b) => (a.id < b.id ? -1 : 1));
      const chunks = Array.from({ length: Math.ceil(queued.length / BROADCAST_BATCH_SIZE) }, (_, i) =>
        queued.slice(i * BROADCAST_BATCH_SIZE, (i + 1) * BROADCAST_BATCH_SIZE),
      );
      const deliveries = await Promise.all(
        chunks.map((chunk) => deliverBroadcastBatch(input.broadcastId, chunk, signal, sender, variantFroms)),
      );
      // A rate limit never gets here: the pacer waits it out. Delivered chunks and ones Resend
      // refused for good are recorded; a chunk the provider did not take (an outage, the worker
      // stopping) keeps its rows 'queued', released from this run's lease, and the attempt ends in
      // `retry`, so the engine retries with backoff and the next run sends those rows first,
      // under the same idempotency key.
      const recorded = deliveries.filter((d) => !("error" in d) || d.permanent);
      const untaken = deliveries.filter((d) => "error" in d && !d.permanent);
      if (recorded.length || untaken.length)
        await withService(async (db) => {
          for (const delivery of recorded) await recordBroadcastDelivery(db, delivery);
          if (untaken.length)
            await releaseBroadcastRows(
              db,
              untaken.flatMap((d) => d.ids),
            );
        });
      const waiting = untaken[0];
      if (waiting && "error" in waiting) {
        if (!options.lastAttempt) return retry("provider_failed", `Resend: ${waiting.error}`);
        // Past every retry the mail is not lost nor failed: the broadcast pauses with the reason
        // on its page, and resuming sends the waiting rows under their keys.
        await withService((db) =>
          pauseBroadcastItself(
            db,
            input,
            "provider",
            `Resend did not take the mail after every retry (${waiting.error}).`,
          ),
        );
        return done({ batches, paused: true });
      }
    }
    batches += 1;
    // the rest is on its way in another run: this one comes back after the engine's backoff,
    // and ends the broadcast if that run could not (a lease that ran out is taken here)
    if (claim.othersSending)
      return retry("retry_later", "Another run is delivering the broadcast's last rows.");
    if (claim.stopped) return done({ batches });
  }
}
