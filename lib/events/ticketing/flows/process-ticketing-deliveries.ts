import { withService } from "@/lib/db/doors";
import {
  claimDelivery,
  finishDelivery,
  pendingDeliveries,
  recordDeliveryFailure,
} from "@/lib/webhooks/inbox";
import { fetchTicketingDelivery, type FetchedTicketingDelivery } from "../flows/fetch-ticketing-delivery";
import { handleTicketingDelivery } from "../handle-ticketing-delivery";
import { readTicketingDelivery } from "../read-ticketing-delivery";
import { done, retry, type JobOutcome } from "@/lib/jobs/outcome";
import { log } from "@/lib/observability/log";

export type ProcessOutcome = "done" | "ignored" | "failed" | "skipped";

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/**
 * One stored ticketing delivery, in three steps so that no provider call happens inside a
 * transaction that holds a lock (docs/decisions.md, "Provider calls outside transactions"):
 * 1. a short read: the delivery, if still to do, and its connection's token;
 * 2. Eventbrite, outside any transaction;
 * 3. a short write transaction that claims the row (skipping one another worker holds),
 *    re-checks that it is still to do, applies the action in a savepoint and records the
 *    outcome. A failure keeps the attempt and the error ('failed', or 'dead' on the last
 *    attempt); a crash rolls the write back and the job engine runs it again.
 * `lastAttempt`: the job engine will not retry after this one.
 */
export async function runTicketingDelivery(
  id: string,
  options: { lastAttempt?: boolean } = {},
): Promise<JobOutcome<{ outcome: Exclude<ProcessOutcome, "failed"> }>> {
  const found = await withService((db) => readTicketingDelivery(db, id));
  if (!found) return done({ outcome: "skipped" });
  let fetched: FetchedTicketingDelivery;
  try {
    fetched = await fetchTicketingDelivery(found);
  } catch (error) {
    const message = errorText(error);
    log.error(
      { deliveryId: id, attempt: found.row.attempts + 1, reason: message },
      "ticketing delivery failed",
    );
    await withService((db) => recordDeliveryFailure(db, id, { error: message, dead: options.lastAttempt }));
    return retry("provider_failed", message);
  }
  return withService(async (db) => {
    const row = await claimDelivery(db, id);
    if (!row) return done({ outcome: "skipped" as const });
    try {
      const outcome = await db.savepoint((sp) => handleTicketingDelivery(sp, row, fetched));
      await finishDelivery(db, id, { status: outcome.status });
      return done({ outcome: outcome.status });
    } catch (error) {
      const message = errorText(error);
      log.error({ err: error, deliveryId: id, attempt: row.attempts }, "ticketing delivery failed");
      await finishDelivery(db, id, { error: message, dead: options.lastAttempt });
      return retry("internal", message);
    }
  });
}

export async function processTicketingDelivery(id: string): Promise<ProcessOutcome> {
  const outcome = await runTicketingDelivery(id);
  return outcome.status === "done" ? outcome.output!.outcome : "failed";
}

/**
 * Retries what is undone: deliveries never finished or failed (fewer than
 * MAX_DELIVERY_ATTEMPTS), oldest first. The job engine retries each delivery by itself; this
 * stays for /api/admin/retry-ticketing-webhooks (an operator's push).
 */
export async function processPendingTicketingDeliveries(
  olderThanSeconds = 60,
): Promise<Record<ProcessOutcome, number>> {
  const counts: Record<ProcessOutcome, number> = { done: 0, ignored: 0, failed: 0, skipped: 0 };
  const ids = await withService((db) => pendingDeliveries(db, "ticketing", olderThanSeconds));
  for (const id of ids) counts[await processTicketingDelivery(id)] += 1;
  return counts;
}
