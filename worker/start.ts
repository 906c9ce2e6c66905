/**
 * A worker of this service: the job engine working every queue with the handlers of
 * worker/registry.ts, and, when it works every queue, the outbound webhook pump (its deliveries
 * are a queue of their own, lib/webhooks/outbound). `npm start`, `npm run worker` and the tests
 * start workers through this file.
 */
import { startWorker as startJobWorker, type RunningWorker } from "@/lib/jobs/flows/start-worker";
import type { QueueName } from "@/lib/jobs/queues";
import { startWebhookPump } from "@/lib/webhooks/outbound/flows/webhook-pump";
import { HANDLERS } from "./registry";

export type { RunningWorker };

export async function startWorker(options: {
  url: string;
  embedded?: boolean;
  queues?: QueueName[];
}): Promise<RunningWorker> {
  const jobs = await startJobWorker({ ...options, handlers: HANDLERS });
  const webhooks = options.queues ? undefined : startWebhookPump();
  return {
    boss: jobs.boss,
    sql: jobs.sql,
    stopping: jobs.stopping,
    async stop(timeoutMs) {
      await Promise.all([jobs.stop(timeoutMs), webhooks?.stop()]);
    },
  };
}
