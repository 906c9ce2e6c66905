/**
 * npm start: the whole service on one machine.
 * - DATABASE_URL unset: PGlite persisted under ./.data/pglite, served over the Postgres
 *   wire protocol from this process, behind the password kept in ./.data/db-password; Next.js
 *   reaches it through DATABASE_URL (which carries the password) like any server.
 * - Migrations applied; on an empty embedded database a demo workspace is seeded and
 *   its owner's credentials printed.
 * - `next build` (unless SKIP_BUILD=1, or .next was built from these very sources:
 *   scripts/build-stamp.ts), then `next start` (or `next dev` with --dev).
 * - A job worker in this process (unless JOBS_WORKER=0), started before the web server so the
 *   job engine's schema and queues exist before the first request enqueues. SIGTERM/SIGINT stop
 *   the web server (running requests are answered, up to SHUTDOWN_SECONDS), then the worker
 *   gracefully (running jobs finish or are released); exit 0. WORKER_PORT serves the worker's
 *   /health, /ready and /metrics.
 * - A supervisor of the web server: when `next start` exits without being asked to (a crash), it
 *   is started again after RESTART_DELAY_MS (default 1000), so the port does not stay closed;
 *   the worker in this process keeps running meanwhile. No error of the database driver ends
 *   this process (lib/observability/process-guard.ts): during a failover it keeps serving and
 *   moves to the new primary (docs/deployment.md "Failover").
 */
import { randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { connect, directDatabaseUrl, setSql } from "../lib/db/client";
import { buildIfStale } from "./build-stamp";
import { withService } from "../lib/db/doors";
import { embeddedDatabasePassword, startEmbeddedDatabase, withoutPassword } from "../lib/db/embedded";
import { MigrationRefusedError, migrate } from "../lib/db/migrate";
import { startWorker, type RunningWorker } from "../worker/start";
import { log } from "../lib/observability/log";
import { keepServingOnDriverErrors } from "../lib/observability/process-guard";
import { startWorkerServer } from "../lib/observability/worker-server";
import { seedDemo } from "../lib/seed/demo";

const dev = process.argv.includes("--dev");
const port = process.env.PORT ?? "3000";
const dataDir = process.env.DATA_DIR ?? path.join(process.cwd(), ".data");

async function demoCredentials(): Promise<{ email: string; password: string } | null> {
  try {
    return JSON.parse(await readFile(path.join(dataDir, "demo-credentials.json"), "utf8"));
  } catch {
    return null;
  }
}

async function main() {
  keepServingOnDriverErrors("npm start");
  let url = process.env.DATABASE_URL;
  let stopDb = async () => {};
  const embedded = !url;
  if (!url) {
    const db = await startEmbeddedDatabase({
      dataDir: path.join(dataDir, "pglite"),
      port: Number(process.env.EMBEDDED_DB_PORT ?? 0),
      password: embeddedDatabasePassword(dataDir),
    });
    url = db.url;
    stopDb = db.stop;
    console.log(
      `Embedded database (PGlite) at ${path.join(dataDir, "pglite")}, serving ${withoutPassword(url)} ` +
        `(password in ${path.join(dataDir, "db-password")})`,
    );
  }

  // migrations and the job engine's schema want a session: the direct URL when a pooler is in front
  const direct = embedded ? url : directDatabaseUrl()!;
  const sql = connect(direct, { max: 1 });
  setSql(sql);
  for (const file of await migrate(sql)) console.log(`  migration applied: ${file}`);
  const [{ n }] = await sql`select count(*)::int as n from public.workspaces`;
  if (embedded && n === 0 && process.env.SEED_DEMO !== "0") {
    const password = randomBytes(9).toString("base64url");
    const { email, memberEmail } = await withService((db) => seedDemo(db, password));
    console.log(`  Demo workspace seeded; a second member, ${memberEmail}, has the same password.`);
    await writeFile(path.join(dataDir, "demo-credentials.json"), JSON.stringify({ email, password }), {
      mode: 0o600,
    });
  }
  await sql.end();
  setSql(undefined);

  const creds = embedded ? await demoCredentials() : null;
  const env = {
    ...process.env,
    DATABASE_URL: url,
    DATABASE_EMBEDDED: embedded ? "1" : "0",
    PORT: port,
    DATA_DIR: dataDir,
  };
  const next = path.join(process.cwd(), "node_modules", ".bin", "next");
  if (!dev && process.env.SKIP_BUILD !== "1") {
    const { code, built } = await buildIfStale(env);
    if (code !== 0) {
      await stopDb();
      process.exit(code);
    }
    if (!built) console.log("  .next is built from these sources: build skipped.");
  }
  if (creds) {
    console.log(`\n  Demo workspace ready. Sign in at http://localhost:${port}/sign-in`);
    console.log(`    email:    ${creds.email}`);
    console.log(`    password: ${creds.password}\n`);
  }
  let worker: RunningWorker | null = null;
  let workerHttp: { close(): Promise<void> } | null = null;
  if (process.env.JOBS_WORKER !== "0") {
    // the worker's handlers use the app pool, which getSql() opens from these
    process.env.DATABASE_URL = url;
    process.env.DATABASE_EMBEDDED = env.DATABASE_EMBEDDED;
    worker = await startWorker({ url: direct, embedded });
    console.log("  Job worker running in this process (JOBS_WORKER=0 to run workers apart).");
    if (process.env.WORKER_PORT)
      workerHttp = await startWorkerServer({
        port: Number(process.env.WORKER_PORT),
        sql: worker.sql,
        stopping: worker.stopping,
      });
  }
  const guard = path.join(process.cwd(), "scripts", "exit-with-parent.cjs");
  const startWeb = () =>
    spawn(next, [dev ? "dev" : "start", "-p", port], {
      stdio: "inherit",
      env: {
        ...env,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${JSON.stringify(guard)}`.trim(),
      },
    });
  let child = startWeb();
  // next start stops accepting connections on SIGTERM and exits once running requests are
  // answered; one that hangs is killed after SHUTDOWN_SECONDS, then the worker stops
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down: web server first, then the worker");
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), Number(process.env.SHUTDOWN_SECONDS ?? 30) * 1000).unref();
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  const finish = async (code: number | null, signal: NodeJS.Signals | null) => {
    await worker?.stop(Number(process.env.JOBS_SHUTDOWN_SECONDS ?? 25) * 1000);
    await workerHttp?.close();
    await stopDb();
    // a requested shutdown that went as planned is a success (next exits 143 on SIGTERM)
    process.exit(stopping && (code === 143 || code === 130 || signal === "SIGTERM") ? 0 : (code ?? 0));
  };
  const supervise = (code: number | null, signal: NodeJS.Signals | null) => {
    if (stopping || dev) return void finish(code, signal);
    // the web server died unasked: start it again, the worker and the database stay up
    log.error({ code, signal }, "the web server exited unexpectedly; starting it again");
    setTimeout(
      () => {
        if (stopping) return void finish(code, signal);
        child = startWeb();
        child.on("exit", supervise);
      },
      Number(process.env.RESTART_DELAY_MS ?? 1000),
    );
  };
  child.on("exit", supervise);
}

main().catch((error) => {
  console.error(error instanceof MigrationRefusedError ? error.message : error);
  process.exit(1);
});
