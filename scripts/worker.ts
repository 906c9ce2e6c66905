/**
 * npm run worker: job workers alone, no web server, for a deployment that scales web and
 * workers separately. Needs DATABASE_URL (a worker cannot open the embedded database that
 * `npm start` holds; point it at that process's EMBEDDED_DB_PORT, or run a real Postgres).
 * SIGTERM/SIGINT: running jobs are given JOBS_SHUTDOWN_SECONDS (default 25) to finish, then
 * released to be retried.
 */
import { directDatabaseUrl } from "../lib/db/client";
import { startWorker } from "../lib/jobs/flows/start-worker";

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("Set DATABASE_URL: the worker runs against the service's database.");
  // pg-boss's own pool (schema install, maintenance, index builds) on the direct URL when set;
  // the handlers' transactions on DATABASE_URL, which may be a transaction pooler
  const worker = await startWorker({
    url: directDatabaseUrl()!,
    embedded: process.env.DATABASE_EMBEDDED === "1",
  });
  console.log("Worker started: working every queue.");
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await worker.stop(Number(process.env.JOBS_SHUTDOWN_SECONDS ?? 25) * 1000);
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
