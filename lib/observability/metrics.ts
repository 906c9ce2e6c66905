import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * The process's Prometheus metrics (prom-client), one registry per process: Next.js may load this
 * module from more than one bundle, so the registry lives on globalThis. Served by
 * GET /api/metrics (web) and the worker's WORKER_PORT (lib/observability/worker-server.ts).
 */
function create() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "crm_" });
  return {
    registry,
    requestDuration: new Histogram({
      name: "crm_http_request_duration_seconds",
      help: "Time to answer a request to an API route, by route name, method and status.",
      labelNames: ["route", "method", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    poolSize: new Gauge({
      name: "crm_db_pool_size",
      help: "Connections the application's database pool may open (DATABASE_POOL_SIZE).",
      registers: [registry],
    }),
    poolInUse: new Gauge({
      name: "crm_db_pool_in_use",
      help: "Connections of the application's pool held by a transaction now.",
      registers: [registry],
    }),
    poolWait: new Histogram({
      name: "crm_db_pool_wait_seconds",
      help: "Time a transaction waited for a connection of the application's pool.",
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: [registry],
    }),
    dbReads: new Counter({
      name: "crm_db_reads_total",
      help: "Reads that tolerate lag (lib/db/replica.ts), by the server that served them (replica, primary) and why (replica, unset, replica_down, lagging, own_write, replica_error).",
      labelNames: ["target", "reason"] as const,
      registers: [registry],
    }),
    providerLimited: new Counter({
      name: "crm_provider_rate_limited_total",
      help: 'Requests a provider answered 429 past its rate, by provider; each was made again after its retry-after (docs/decisions.md, "One pacer per Resend key").',
      labelNames: ["provider"] as const,
      registers: [registry],
    }),
    emailSends: new Counter({
      name: "crm_email_sends_total",
      help: "Emails handed to the provider by this process, by kind (single, broadcast) and outcome (sent, failed).",
      labelNames: ["kind", "outcome"] as const,
      registers: [registry],
    }),
  };
}

type Metrics = ReturnType<typeof create>;
const globalForMetrics = globalThis as unknown as { __crmMetrics?: Metrics };

export function metrics(): Metrics {
  globalForMetrics.__crmMetrics ??= create();
  return globalForMetrics.__crmMetrics;
}

/** A connection was reserved for a transaction after waiting `waitedMs`; call the result when released. */
export function poolCheckout(waitedMs: number): () => void {
  const m = metrics();
  m.poolWait.observe(waitedMs / 1000);
  m.poolInUse.inc();
  return () => m.poolInUse.dec();
}
