import { Gauge } from "prom-client";
import { getSql } from "@/lib/db/client";
import { JOBS_SCHEMA } from "@/lib/jobs/queues";
import { log } from "./log";
import { metrics } from "./metrics";

/**
 * What the database says at scrape time, the same from every process (so one target is enough:
 * the web's /api/metrics): the job queues' depth and age from pg-boss's own per-queue counts
 * (kept by the workers' monitor every JOBS_SUPERVISE_SECONDS), the outbound webhooks waiting past
 * their due time (the partial index on due deliveries answers it), and the server's connections
 * to this database by state (behind a pooler: the pooler's server connections).
 */
function create() {
  const registers = [metrics().registry];
  return {
    up: new Gauge({ name: "crm_database_up", help: "1 when the database answered this scrape.", registers }),
    queueDepth: new Gauge({
      name: "crm_job_queue_depth",
      help: "Jobs in a queue by state (queued: waiting to start; active; deferred: start_after in the future; failed).",
      labelNames: ["queue", "state"] as const,
      registers,
    }),
    queueAge: new Gauge({
      name: "crm_job_queue_oldest_ready_seconds",
      help: "Age of the oldest job of a queue that is ready to start and not started.",
      labelNames: ["queue"] as const,
      registers,
    }),
    webhooksDue: new Gauge({
      name: "crm_webhook_deliveries_due",
      help: "Outbound webhook deliveries pending and due now.",
      registers,
    }),
    webhookLag: new Gauge({
      name: "crm_webhook_delivery_lag_seconds",
      help: "How long the most overdue pending outbound webhook delivery has been due (0 when none).",
      registers,
    }),
    connections: new Gauge({
      name: "crm_db_server_connections",
      help: "Server connections to this database by state (pg_stat_activity).",
      labelNames: ["state"] as const,
      registers,
    }),
  };
}

type Gauges = ReturnType<typeof create>;
const globalForGauges = globalThis as unknown as { __crmDbGauges?: Gauges };

export async function refreshDatabaseGauges(): Promise<void> {
  const g = (globalForGauges.__crmDbGauges ??= create());
  const sql = getSql();
  try {
    const [queues, [due], connections] = await Promise.all([
      sql.unsafe(
        `select name, queued_count, active_count, deferred_count, failed_count, ready_oldest_seconds
         from ${JOBS_SCHEMA}.queue`,
      ),
      sql`select count(*)::int as n,
                 coalesce(extract(epoch from now() - min(next_attempt_at)), 0)::float8 as lag
          from public.webhook_deliveries where status = 'pending' and next_attempt_at <= now()`,
      sql`select coalesce(state, 'unknown') as state, count(*)::int as n
          from pg_stat_activity where datname = current_database() group by 1`,
    ]);
    g.queueDepth.reset();
    g.queueAge.reset();
    for (const q of queues) {
      g.queueDepth.set({ queue: q.name, state: "queued" }, q.queued_count);
      g.queueDepth.set({ queue: q.name, state: "active" }, q.active_count);
      g.queueDepth.set({ queue: q.name, state: "deferred" }, q.deferred_count);
      g.queueDepth.set({ queue: q.name, state: "failed" }, q.failed_count);
      g.queueAge.set({ queue: q.name }, q.ready_oldest_seconds ?? 0);
    }
    g.webhooksDue.set(due.n);
    g.webhookLag.set(due.lag);
    g.connections.reset();
    for (const c of connections) g.connections.set({ state: c.state }, c.n);
    g.up.set(1);
  } catch (error) {
    g.up.set(0);
    log.warn({ err: error }, "metrics: the database gauges could not be read");
  }
}
