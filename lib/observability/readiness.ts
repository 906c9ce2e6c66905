import { readdir } from "node:fs/promises";
import path from "node:path";
import { getSql, type Sql } from "@/lib/db/client";
import { replicaState } from "@/lib/db/replica";
import { log } from "./log";
import { JOBS_SCHEMA, QUEUES } from "@/lib/jobs/queues";

export type Check = "ok" | "failed" | "unknown";

export interface Readiness {
  ready: boolean;
  checks: Record<string, Check | number>;
}

const TIMEOUT_MS = Number(process.env.READY_TIMEOUT_MS ?? 2_000);

function within<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const globalForReady = globalThis as unknown as { __crmDraining?: boolean };

/** From SIGTERM on, the process answers not ready, so a load balancer stops sending it work. */
export function markDraining(): void {
  globalForReady.__crmDraining = true;
}

/**
 * For the web process (instrumentation.ts): next start closes the server and lets running
 * requests finish on SIGTERM; from then on GET /api/ready answers 503, so a load balancer that
 * still holds a keep-alive connection stops sending.
 */
export function drainOnSigterm(): void {
  process.once("SIGTERM", () => {
    markDraining();
    log.info("SIGTERM: draining");
  });
}

/**
 * Every migration file is recorded in app_meta.migrations. "unknown" when the files are not on
 * this host (a bundle deployed without supabase/migrations): then the check cannot fail.
 */
async function migrationsApplied(sql: Sql): Promise<Check> {
  let files: string[];
  try {
    // the folder lib/db/migrate.ts applies (not imported: its dynamic reads would make the
    // bundler trace the whole project into this route)
    files = (await readdir(path.join(process.cwd(), "supabase", "migrations"))).filter((f) =>
      f.endsWith(".sql"),
    );
  } catch {
    return "unknown";
  }
  const rows = await sql`select name from app_meta.migrations`;
  const applied = new Set(rows.map((r) => r.name as string));
  return files.every((f) => applied.has(f)) ? "ok" : "failed";
}

/**
 * The replica's replay lag in seconds (DATABASE_READ_URL), checked now, or -1 when it cannot be
 * read. It does not decide readiness: reads fall back to the primary when the replica is behind or
 * down (lib/db/replica.ts), and this check refreshes the state those reads go by.
 */
async function replicaLag(): Promise<number> {
  const state = await replicaState(true);
  if (!state?.ok || !Number.isFinite(state.lagMs)) return -1;
  return Math.round(state.lagMs) / 1000;
}

/**
 * GET /api/ready for the web process: a primary answers (not a standby: during a failover the
 * process is not ready until one is promoted), every migration is applied, and the
 * process is not shutting down; with DATABASE_READ_URL, the replica's lag (reported only). No
 * error text leaves the process: each check is ok, failed or unknown.
 */
export async function webReadiness(): Promise<Readiness> {
  const checks: Readiness["checks"] = {};
  const sql = getSql();
  try {
    // a primary: a standby (before or without its promotion) answers, but takes no write
    const [{ writable }] = await within(
      sql<{ writable: boolean }[]>`
        select not pg_is_in_recovery() and current_setting('transaction_read_only') = 'off' as writable`,
    );
    if (!writable) throw new Error("the database is read-only");
    checks.database = "ok";
    checks.migrations = await within(migrationsApplied(sql));
  } catch {
    checks.database = checks.database ?? "failed";
    checks.migrations = checks.migrations ?? "unknown";
  }
  if (process.env.DATABASE_READ_URL) checks.replica_lag_seconds = await replicaLag();
  checks.accepting = globalForReady.__crmDraining ? "failed" : "ok";
  const ready = checks.database === "ok" && checks.migrations !== "failed" && checks.accepting === "ok";
  return { ready, checks };
}

/**
 * A worker's readiness (its WORKER_PORT /ready): a primary answers, every queue the service
 * defines exists in pg-boss (the schema is installed), and the worker is not stopping.
 */
export async function workerReadiness(sql: Sql, stopping: boolean): Promise<Readiness> {
  const checks: Readiness["checks"] = {};
  try {
    const [{ writable }] = await within(
      sql<{ writable: boolean }[]>`select not pg_is_in_recovery() as writable`,
    );
    if (!writable) throw new Error("the database is a standby");
    const rows = await within(sql.unsafe(`select name from ${JOBS_SCHEMA}.queue`));
    checks.database = "ok";
    const names = new Set(rows.map((r) => r.name as string));
    checks.queues = Object.keys(QUEUES).every((q) => names.has(q)) ? "ok" : "failed";
  } catch {
    checks.database = "failed";
    checks.queues = "unknown";
  }
  checks.accepting = stopping ? "failed" : "ok";
  return { ready: Object.values(checks).every((c) => c === "ok"), checks };
}
