/**
 * npm run worker: job workers alone, no web server, for a deployment that scales web and
 * workers separately. Needs DATABASE_URL (a worker cannot open the embedded database that
 * `npm start` holds; point it at that process's EMBEDDED_DB_PORT with the password in
 * .data/db-password, or run a real Postgres).
 * SIGTERM/SIGINT: running jobs are given JOBS_SHUTDOWN_SECONDS (default 25) to finish, then
 * released to be retried; then the pools close and the process exits 0. WORKER_PORT: /health,
 * /ready and /metrics of this worker (lib/observability/worker-server.ts).
 */
import { directDatabaseUrl, getSql } from "../lib/db/client";
import { log } from "../lib/observability/log";
import { keepServingOnDriverErrors } from "../lib/observability/process-guard";
import { startWorkerServer } from "../lib/observability/worker-server";
import { startWorker } from "../worker/start";

async function main() {
  keepServingOnDriverErrors("worker");
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("Set DATABASE_URL: the worker runs against the service's database.");
  // pg-boss's own pool (schema install, maintenance, index builds) on the direct URL when set;
  // the handlers' transactions on DATABASE_URL, which may be a transaction pooler
  const worker = await startWorker({
    url: directDatabaseUrl()!,
    embedded: process.env.DATABASE_EMBEDDED === "1",
  });
  const http = process.env.WORKER_PORT
    ? await startWorkerServer({
        port: Number(process.env.WORKER_PORT),
        sql: worker.sql,
        stopping: worker.stopping,
      })
    : null;
  log.info({ port: http?.port }, "worker started: working every queue");
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "worker stopping: running jobs finish or are released");
    await worker.stop(Number(process.env.JOBS_SHUTDOWN_SECONDS ?? 25) * 1000);
    await http?.close();
    await getSql().end({ timeout: 5 }); // the handlers' pool, after the last job
    log.info("worker stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error) => {
  log.fatal({ err: error }, "worker failed to start");
  process.exit(1);
});
