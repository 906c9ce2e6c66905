import { deliverDueWebhooks } from "./deliver-due-webhooks";
import { log } from "@/lib/observability/log";

/**
 * The worker's loop over due webhook deliveries (docs/decisions.md, "Outbound webhooks"): every `intervalMs`
 * it claims and attempts what is due, at once again while a full batch came back. Any number of workers may
 * run it on one database: claims are exclusive (deliver-due-webhooks.ts). stop() waits for the
 * batch in flight, so a graceful shutdown finishes what it started.
 */
export function startWebhookPump(options: { intervalMs?: number; batch?: number } = {}): {
  stop(): Promise<void>;
} {
  const intervalMs = options.intervalMs ?? 1_000;
  const batch = options.batch ?? 50;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = (async () => {
      try {
        while (!stopped && (await deliverDueWebhooks({ limit: batch })) === batch);
      } catch (error) {
        log.error({ err: error }, "webhooks: delivery pass failed");
      }
      if (!stopped) timer = setTimeout(tick, intervalMs);
    })();
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
