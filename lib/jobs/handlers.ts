import type { Job, JobWithMetadata } from "pg-boss";
import { runContactImport } from "@/lib/contacts/flows/run-contact-import";
import { withService } from "@/lib/db/doors";
import { deliverEmail } from "@/lib/email/flows/deliver-email";
import { runBroadcast } from "@/lib/email/flows/run-broadcast";
import { runTicketingDelivery } from "@/lib/events/ticketing/flows/process-ticketing-deliveries";
import { NOT_CONNECTED, runTicketingSync } from "@/lib/events/ticketing/flows/run-ticketing-sync";
import { runBackfillCli } from "@/lib/payments/backfill-cli";
import { stripeClient } from "@/lib/payments/stripe-client";
import { sweepPendingSubmissions } from "@/lib/forms/sweep-pending-submissions";
import { sweepRateLimitHits } from "@/lib/forms/flows/sweep-rate-limit-hits";
import { sweepInbox } from "@/lib/webhooks/sweep-inbox";
import type { QueueName } from "./queues";
import { log } from "@/lib/observability/log";

type Handler = (job: JobWithMetadata<Record<string, string>>) => Promise<unknown>;

/** Repeats a bounded sweep until a call deletes fewer rows than its bound. */
async function sweepAll(sweep: () => Promise<number>, bound = 10_000): Promise<{ deleted: number }> {
  let deleted = 0;
  for (let n = bound; n >= bound; deleted += n) n = await sweep();
  return { deleted };
}

/** What each queue's jobs do. A handler that throws fails the attempt; pg-boss retries per the queue. */
export const HANDLERS: Record<QueueName, Handler> = {
  "ticketing-delivery": async (job) => {
    const { outcome, error } = await runTicketingDelivery(job.data.inboxId, {
      lastAttempt: job.retryCount >= job.retryLimit,
    });
    if (outcome === "failed") throw new Error(error ?? "The delivery failed.");
    return { outcome };
  },
  broadcast: (job) =>
    runBroadcast({ workspaceId: job.data.workspaceId, broadcastId: job.data.broadcastId }, job.signal, {
      lastAttempt: job.retryCount >= job.retryLimit,
    }),
  "email-send": async (job) => {
    const lastAttempt = job.retryCount >= job.retryLimit;
    const { html, text } = job.data;
    const result = await deliverEmail(job.data.emailSendId, {
      lastAttempt,
      body: html === undefined && text === undefined ? undefined : { html, text },
    });
    // the last attempt failed: the job stays failed beside the 'failed' row (the jobs page retries it)
    if (result.outcome === "retry" || (result.outcome === "failed" && lastAttempt))
      throw new Error(result.error ?? "The email could not be delivered.");
    return result;
  },
  "ticketing-sync": async (job) => {
    const result = await runTicketingSync(job.data.workspaceId);
    // a workspace that disconnected meanwhile has nothing to sync: done, not failed
    if ("error" in result && result.error !== NOT_CONNECTED) throw new Error(result.error);
    return result;
  },
  "payments-backfill": async (job) => {
    const lines: string[] = [];
    const report = (line: string) => {
      lines.push(line);
      log.info({ workspaceId: job.data.workspaceId }, `payments backfill: ${line}`);
    };
    const code = await runBackfillCli(["--workspace", job.data.workspaceId], {
      stripe: stripeClient(),
      log: report,
    });
    if (code !== 0) throw new Error(lines.slice(-3).join("\n").trim() || "The payments backfill stopped.");
    return { done: true };
  },
  "contact-import": (job) =>
    runContactImport(job.data.importId, { lastAttempt: job.retryCount >= job.retryLimit }),
  "sweep-rate-limit-hits": () => sweepAll(() => withService(sweepRateLimitHits)),
  "sweep-pending-submissions": () => sweepAll(() => withService(sweepPendingSubmissions)),
  "sweep-webhook-inbox": () => sweepAll(() => withService((db) => sweepInbox(db))),
};

export type { Job };
