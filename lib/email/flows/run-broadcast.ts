import { withService } from "@/lib/db/doors";
import { claimBroadcastBatch, deliverBroadcastBatch, recordBroadcastDelivery } from "../send-broadcast";
import { resendClient } from "../resend-client";

/** Rows claimed per transaction on the dev outbox (Resend's batch endpoint takes 100). */
const OUTBOX_BATCH_SIZE = 500;

/**
 * The broadcast job (issue 14): claims, delivers and records batch after batch, each phase in
 * its own short transaction with the delivery between them, until the audience is done or the
 * broadcast is paused or cancelled (read from the database before every batch). Exactly once
 * per contact does not depend on this loop: the unique (broadcast_id, contact_id) key refuses
 * a second row, so a rerun after a crash, or a second worker on the same broadcast, sends
 * nothing twice. `signal` aborts between batches (the worker is stopping); the job engine runs
 * the job again and it carries on where it stopped.
 */
export async function runBroadcast(
  input: { workspaceId: string; broadcastId: string },
  signal?: AbortSignal,
  options: { lastAttempt?: boolean } = {},
): Promise<{ batches: number }> {
  const batchSize = resendClient() ? undefined : OUTBOX_BATCH_SIZE;
  let batches = 0;
  for (;;) {
    if (signal?.aborted)
      throw new Error("The worker stopped between batches; the broadcast carries on when retried.");
    const claim = await withService((db) => claimBroadcastBatch(db, { ...input, batchSize }));
    if ("error" in claim) return { batches }; // deleted meanwhile: nothing left to do
    if (claim.queued.length) {
      const delivery = await deliverBroadcastBatch(input.broadcastId, claim.queued);
      // Resend refused or did not answer: the rows stay 'queued' and the job fails this attempt,
      // so the engine retries with backoff and the next run sends the same rows first, under the
      // same idempotency key. On the last attempt they are recorded 'failed' and the send goes on.
      if ("error" in delivery && !options.lastAttempt) throw new Error(`Resend: ${delivery.error}`);
      await withService((db) => recordBroadcastDelivery(db, delivery));
    }
    batches += 1;
    if (claim.stopped) return { batches };
  }
}
