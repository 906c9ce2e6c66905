/**
 * The worker's composition root (docs/decisions.md, "Jobs with contracts"): each queue's
 * contract (lib/jobs/queues.ts) bound to what its jobs do in its area. Only the worker's entry
 * points import this file (worker/start.ts); areas enqueue through the contracts and never reach
 * a handler, which an ESLint rule keeps so. A handler gets its payload already checked against
 * its contract and returns its flow's JobOutcome, which lib/jobs/handle.ts maps to the engine once.
 */
import { deliverCampaignEmails } from "@/lib/campaigns/flows/deliver-campaign-emails";
import { runCampaignSweep } from "@/lib/campaigns/flows/run-campaign-sweep";
import { runContactImport } from "@/lib/contacts/flows/run-contact-import";
import { withService } from "@/lib/db/doors";
import { deliverEmail } from "@/lib/email/flows/deliver-email";
import { runBroadcast } from "@/lib/email/flows/run-broadcast";
import { decideAbTest } from "@/lib/email/flows/decide-ab-test";
import { runSendingDomainCheck } from "@/lib/email/flows/manage-sending-domain";
import { runTicketingDelivery } from "@/lib/events/ticketing/flows/process-ticketing-deliveries";
import { ticketingSyncJob } from "@/lib/events/ticketing/flows/run-ticketing-sync";
import { sweepWaitlistOffers } from "@/lib/events/waitlist/flows/sweep-offers";
import { sweepRateLimitHits } from "@/lib/forms/flows/sweep-rate-limit-hits";
import { sweepIdempotencyKeys } from "@/lib/api-keys/idempotency-sweep";
import { sweepPendingSubmissions } from "@/lib/forms/sweep-pending-submissions";
import { handle, type JobRegistry } from "@/lib/jobs/handle";
import { done } from "@/lib/jobs/outcome";
import { QUEUES } from "@/lib/jobs/queues";
import { paymentsBackfillJob } from "@/lib/payments/flows/run-payments-backfill";
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
  "ticketing-delivery": handle(QUEUES["ticketing-delivery"], ({ inboxId }, job) =>
    runTicketingDelivery(inboxId, { lastAttempt: lastAttempt(job) }),
  ),
  broadcast: handle(QUEUES.broadcast, ({ workspaceId, broadcastId, scheduledAt }, job) =>
    runBroadcast({ workspaceId, broadcastId, scheduledAt }, job.signal, {
      lastAttempt: lastAttempt(job),
      runner: job.id,
    }),
  ),
  "broadcast-ab-decision": handle(QUEUES["broadcast-ab-decision"], ({ workspaceId, broadcastId }) =>
    decideAbTest({ workspaceId, broadcastId }),
  ),
  "email-send": handle(QUEUES["email-send"], ({ emailSendId, html, text }, job) =>
    deliverEmail(emailSendId, {
      lastAttempt: lastAttempt(job),
      body: html === undefined && text === undefined ? undefined : { html, text },
    }),
  ),
  "sending-domain-check": handle(QUEUES["sending-domain-check"], (ids) => runSendingDomainCheck(ids)),
  "campaign-sweep": handle(QUEUES["campaign-sweep"], (_payload, job) => runCampaignSweep(job.signal)),
  "campaign-delivery": handle(QUEUES["campaign-delivery"], (_payload, job) =>
    deliverCampaignEmails(job.signal),
  ),
  "ticketing-sync": handle(QUEUES["ticketing-sync"], ({ workspaceId }) => ticketingSyncJob(workspaceId)),
  "payments-backfill": handle(QUEUES["payments-backfill"], ({ workspaceId }) =>
    paymentsBackfillJob(workspaceId),
  ),
  "contact-import": handle(QUEUES["contact-import"], ({ importId }, job) =>
    runContactImport(importId, { lastAttempt: lastAttempt(job) }),
  ),
  // the limiters' state: form hits, and the REST API's Idempotency-Key answers past 24 hours
  "sweep-rate-limit-hits": handle(QUEUES["sweep-rate-limit-hits"], async () => {
    const hits = await sweepAll(() => withService(sweepRateLimitHits));
    const answers = await sweepAll(() => withService((db) => sweepIdempotencyKeys(db)));
    return done({ deleted: hits.deleted + answers.deleted });
  }),
  "sweep-pending-submissions": handle(QUEUES["sweep-pending-submissions"], async () =>
    done(await sweepAll(() => withService(sweepPendingSubmissions))),
  ),
  "waitlist-offers-sweep": handle(QUEUES["waitlist-offers-sweep"], () => sweepWaitlistOffers()),
  "sweep-webhook-inbox": handle(QUEUES["sweep-webhook-inbox"], async () =>
    done(await sweepAll(() => withService((db) => sweepInbox(db)))),
  ),
};
