import { PgBoss } from "pg-boss";
import { connect, type Sql } from "@/lib/db/client";
import { poolDb } from "../boss-db";
import { VERSION_KEY } from "../contract";
import { settleJob, type JobRegistry } from "../handle";
import { JOBS_SCHEMA, QUEUES, SCHEDULES, type QueueName } from "../queues";
import { log } from "@/lib/observability/log";

const seconds = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

function newBoss(url: string, embedded: boolean, options: { supervise: boolean }) {
  // pg-boss's own statements go on a pool of their own, so that its heartbeats and polls are
  // never queued behind a job's transaction on the app pool (one connection on PGlite)
  const sql = connect(url, { max: embedded ? 1 : 4 });
  const boss = new PgBoss({
    db: poolDb(sql),
    schema: JOBS_SCHEMA,
    supervise: options.supervise,
    schedule: options.supervise,
    superviseIntervalSeconds: seconds("JOBS_SUPERVISE_SECONDS", 15),
    monitorIntervalSeconds: seconds("JOBS_SUPERVISE_SECONDS", 15),
  });
  boss.on("error", (error) => log.error({ err: error }, "jobs: pg-boss error"));
  return { boss, sql };
}

/** Creates each queue of QUEUES, or brings its options up to date. */
async function installQueues(boss: PgBoss): Promise<void> {
  for (const { name, options } of Object.values(QUEUES)) {
    if (await boss.getQueue(name)) await boss.updateQueue(name, options);
    else await boss.createQueue(name, options);
  }
}

/**
 * The jobs page's filter (data->>'workspaceId', newest first) as an index on pg-boss's job table.
 * pg-boss owns the table, so the index is made here, after pg-boss has installed or upgraded it,
 * on every start (a pg-boss upgrade that rebuilt the table gets it back). On the partitioned
 * table it reaches every queue's partition, also those created later. pg-boss's schema check
 * reports an index it does not know as a harmless extra, never as drift.
 */
export const WORKSPACE_JOBS_INDEX = "job_workspace_created_idx";

async function indexWorkspaceJobs(sql: Sql): Promise<void> {
  const name = `${JOBS_SCHEMA}.${WORKSPACE_JOBS_INDEX}`;
  const [{ exists }] = await sql`select to_regclass(${name}) is not null as exists`;
  if (exists) return; // CREATE INDEX IF NOT EXISTS would still wait for a lock on the table
  // several workers may start at once: one builds it, the others find it
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${name}))`;
    await tx.unsafe(
      `create index if not exists ${WORKSPACE_JOBS_INDEX} on ${JOBS_SCHEMA}.job
         ((data->>'workspaceId'), created_on) where data->>'workspaceId' is not null`,
    );
  });
}

/**
 * Installs or upgrades pg-boss's schema (its own migration, under its advisory lock, so several
 * starters at once are safe) and the queues. `npm start`, `npm run worker`, `npm run db:migrate`
 * and the test template run it; the web process only enqueues.
 */
export async function installJobs(url: string, embedded = false): Promise<void> {
  const { boss, sql } = newBoss(url, embedded, { supervise: false });
  await boss.start();
  await installQueues(boss);
  await indexWorkspaceJobs(sql);
  await boss.stop({ graceful: false });
  await sql.end();
}

export interface RunningWorker {
  boss: PgBoss;
  /** pg-boss's own pool: the readiness check reads the queues through it */
  sql: Sql;
  /** true from the first stop() on */
  stopping(): boolean;
  /** Graceful: waits up to `timeoutMs` for running jobs, then fails them so they are retried. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * A worker: installs the schema and queues, registers the sweeps' cron schedules, and works
 * every queue of `handlers` (or `queues`), each job checked against its queue's contract before
 * its handler runs (lib/jobs/handle.ts). The handlers come from the worker's composition root
 * (worker/registry.ts), which only the worker's entry points import. Handlers use the app pool
 * (getSql()); pg-boss uses its own. Any number of workers may run on one database, on as many
 * machines: pg-boss hands each job to one of them (FOR UPDATE SKIP LOCKED) and a worker that dies
 * releases its jobs when their heartbeat or expiry lapses.
 */
export async function startWorker(options: {
  /** pg-boss's own pool (schema install, maintenance): the direct URL when a pooler is in front */
  url: string;
  embedded?: boolean;
  queues?: QueueName[];
  handlers: JobRegistry;
}): Promise<RunningWorker> {
  const embedded = options.embedded ?? false;
  const { boss, sql } = newBoss(options.url, embedded, { supervise: true });
  await boss.start();
  await installQueues(boss);
  await indexWorkspaceJobs(sql);
  for (const { queue, cron } of SCHEDULES)
    await boss.schedule(queue, cron, { [VERSION_KEY]: QUEUES[queue].version }, { tz: "UTC" });
  const pollingIntervalSeconds = seconds("JOBS_POLL_SECONDS", 1);
  for (const name of options.queues ?? (Object.keys(options.handlers) as QueueName[])) {
    const handler = options.handlers[name];
    await boss.work(
      name,
      {
        includeMetadata: true,
        perJobResults: true,
        pollingIntervalSeconds,
        localConcurrency: name === "broadcast" ? 2 : 4,
      },
      async (jobs) => Promise.all(jobs.map((job) => settleJob(handler, job))),
    );
  }
  let stopping = false;
  return {
    boss,
    sql,
    stopping: () => stopping,
    async stop(timeoutMs = 25_000) {
      stopping = true;
      await boss.stop({ graceful: true, timeout: timeoutMs });
      await sql.end();
    },
  };
}
