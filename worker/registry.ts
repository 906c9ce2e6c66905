/**
 * The worker's composition root (docs/decisions.md, "Jobs with contracts"): each queue's
 * contract (lib/jobs/queues.ts) bound to what its jobs do in its area. Only the worker's entry
 * points import this file (worker/start.ts); areas enqueue through the contracts and never reach
 * a handler, which an ESLint rule keeps so. A handler gets its payload already checked against
 * its contract; one that throws fails the attempt and pg-boss retries per the queue.
 */
import { runContactImport } from "@/lib/contacts/flows/run-contact-import";
import { withService } from "@/lib/db/doors";
import { deliverEmail } from "@/lib/email/flows/deliver-email";
import { runBroadcast } from "@/lib/email/flows/run-broadcast";
import { runTicketingDelivery } from "@/lib/events/ticketing/flows/process-ticketing-deliveries";
import { NOT_CONNECTED, runTicketingSync } from "@/lib/events/ticketing/flows/run-ticketing-sync";
import { sweepRateLimitHits } from "@/lib/forms/flows/sweep-rate-limit-hits";
import { sweepIdempotencyKeys } from "@/lib/adapters/v1/idempotency";
import { sweepPendingSubmissions } from "@/lib/forms/sweep-pending-submissions";
import { handle, type JobRegistry } from "@/lib/jobs/handle";
import { QUEUES } from "@/lib/jobs/queues";
import { log } from "@/lib/observability/log";
import { runPaymentsBackfill } from "@/lib/payments/flows/run-payments-backfill";
import { stripeClient } from "@/lib/payments/stripe-client";
import { sweepInbox } from "@/lib/webhooks/sweep-inbox";

/** Repeats a bounded sweep until a call deletes fewer rows than its bound. */
async function sweepAll(sweep: () => Promise<number>, bound = 10_000): Promise<{ deleted: number }> {
  let deleted = 0;
  for (let n = bound; n >= bound; deleted += n) n = await sweep();
  return { deleted };
}

/** Whether this attempt is the job's last: a failure then is final. */
const lastAttempt = (job: { retryCount: number; retryLimit: number }) => job.retryCount >= job.retryLimit;

export const HANDLERS: JobRegistry = {
  "ticketing-delivery": handle(QUEUES["ticketing-delivery"], async ({ inboxId }, job) => {
    const { outcome, error } = await runTicketingDelivery(inboxId, { lastAttempt: lastAttempt(job) });
    if (outcome === "failed") throw new Error(error ?? "The delivery failed.");
    return { outcome };
  }),
  broadcast: handle(QUEUES.broadcast, ({ workspaceId, broadcastId, scheduledAt }, job) =>
    runBroadcast({ workspaceId, broadcastId, scheduledAt }, job.signal, { lastAttempt: lastAttempt(job) }),
  ),
  "email-send": handle(QUEUES["email-send"], async ({ emailSendId, html, text }, job) => {
    const last = lastAttempt(job);
    const result = await deliverEmail(emailSendId, {
      lastAttempt: last,
      body: html === undefined && text === undefined ? undefined : { html, text },
    });
    // the last attempt failed: the job stays failed beside the 'failed' row (the jobs page retries it)
    if (result.outcome === "retry" || (result.outcome === "failed" && last))
      throw new Error(result.error ?? "The email could not be delivered.");
    return result;
  }),
  "ticketing-sync": handle(QUEUES["ticketing-sync"], async ({ workspaceId }) => {
    const result = await runTicketingSync(workspaceId);
    // a workspace that disconnected meanwhile has nothing to sync: done, not failed
    if ("error" in result && result.error.message !== NOT_CONNECTED) throw result.error;
    return result;
  }),
  "payments-backfill": handle(QUEUES["payments-backfill"], async ({ workspaceId }) => {
    const report = (line: string) => log.info({ workspaceId }, `payments backfill: ${line}`);
    const outcome = await runPaymentsBackfill(
      { stripe: stripeClient(), log: report },
      { workspaceId, batch: 100 },
    );
    if (!outcome.done) throw new Error(outcome.error);
    return { done: true };
  }),
  "contact-import": handle(QUEUES["contact-import"], ({ importId }, job) =>
    runContactImport(importId, { lastAttempt: lastAttempt(job) }),
  ),
  // the limiters' state: form hits, and the REST API's Idempotency-Key answers past 24 hours
  "sweep-rate-limit-hits": handle(QUEUES["sweep-rate-limit-hits"], async () => {
    const hits = await sweepAll(() => withService(sweepRateLimitHits));
    const answers = await sweepAll(() => withService((db) => sweepIdempotencyKeys(db)));
    return { deleted: hits.deleted + answers.deleted };
  }),
  "sweep-pending-submissions": handle(QUEUES["sweep-pending-submissions"], () =>
    sweepAll(() => withService(sweepPendingSubmissions)),
  ),
  "sweep-webhook-inbox": handle(QUEUES["sweep-webhook-inbox"], () =>
    sweepAll(() => withService((db) => sweepInbox(db))),
  ),
};
