import { withService } from "@/lib/db/doors";
import { claimDelivery, finishDelivery, pendingDeliveries } from "@/lib/webhooks/inbox";
import { handleTicketingDelivery } from "./handle-ticketing-delivery";

export type ProcessOutcome = "done" | "ignored" | "failed" | "skipped";

/**
 * The worker of the ticketing inbox (a job, like the sync, so it opens its own transaction):
 * claims the delivery (the row stays locked, so no other worker processes it meanwhile),
 * processes it in a savepoint and records the outcome in the same transaction. A failure
 * rolls back the delivery's writes but keeps the attempt and the error, so it is retried; a
 * crash rolls back everything and leaves it pending, so it is retried too.
 */
export async function processTicketingDelivery(id: string): Promise<ProcessOutcome> {
  return withService(async (db) => {
    const row = await claimDelivery(db, id);
    if (!row) return "skipped";
    try {
      const outcome = await db.savepoint((sp) => handleTicketingDelivery(sp, row));
      await finishDelivery(db, id, { status: outcome.status });
      return outcome.status;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`ticketing delivery ${id} failed (attempt ${row.attempts})`, error);
      await finishDelivery(db, id, { error: message.slice(0, 1000) });
      return "failed";
    }
  });
}

/**
 * Retries what is undone: deliveries never finished (a crash after the 200) or failed
 * (fewer than 10 attempts), oldest first. Runs after every new delivery and from
 * /api/admin/retry-ticketing-webhooks (for a scheduler).
 */
export async function processPendingTicketingDeliveries(
  olderThanSeconds = 60,
): Promise<Record<ProcessOutcome, number>> {
  const counts: Record<ProcessOutcome, number> = { done: 0, ignored: 0, failed: 0, skipped: 0 };
  const ids = await withService((db) => pendingDeliveries(db, "ticketing", olderThanSeconds));
  for (const id of ids) counts[await processTicketingDelivery(id)] += 1;
  return counts;
}
