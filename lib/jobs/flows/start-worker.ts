import { PgBoss } from "pg-boss";
import { connect } from "@/lib/db/client";
import { startWebhookPump } from "@/lib/webhooks/outbound/flows/webhook-pump";
import { poolDb } from "../boss-db";
import { HANDLERS } from "../handlers";
import { JOBS_SCHEMA, QUEUES, SCHEDULES, type QueueName } from "../queues";

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
  boss.on("error", (error) => console.error("jobs:", error));
  return { boss, sql };
}

/** Creates each queue of QUEUES, or brings its options up to date. */
async function installQueues(boss: PgBoss): Promise<void> {
  for (const [name, options] of Object.entries(QUEUES)) {
    if (await boss.getQueue(name)) await boss.updateQueue(name, options);
    else await boss.createQueue(name, options);
  }
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
  await boss.stop({ graceful: false });
  await sql.end();
}

export interface RunningWorker {
  boss: PgBoss;
  /** Graceful: waits up to `timeoutMs` for running jobs, then fails them so they are retried. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * A worker (issue 14): installs the schema and queues, registers the sweeps' cron schedules, and
 * works every queue (or `queues`). Handlers use the app pool (getSql()); pg-boss uses its own.
 * Any number of workers may run on one database, on as many machines: pg-boss hands each job to
 * one of them (FOR UPDATE SKIP LOCKED) and a worker that dies releases its jobs when their
 * heartbeat or expiry lapses.
 */
export async function startWorker(options: {
  url: string;
  embedded?: boolean;
  queues?: QueueName[];
}): Promise<RunningWorker> {
  const embedded = options.embedded ?? false;
  const { boss, sql } = newBoss(options.url, embedded, { supervise: true });
  await boss.start();
  await installQueues(boss);
  for (const { queue, cron } of SCHEDULES) await boss.schedule(queue, cron, {}, { tz: "UTC" });
  const pollingIntervalSeconds = seconds("JOBS_POLL_SECONDS", 1);
  for (const name of options.queues ?? (Object.keys(HANDLERS) as QueueName[])) {
    const handler = HANDLERS[name];
    await boss.work(
      name,
      { includeMetadata: true, pollingIntervalSeconds, localConcurrency: name === "broadcast" ? 2 : 4 },
      async ([job]) => handler(job as never),
    );
  }
  // outbound webhooks: their deliveries are their own queue (lib/webhooks/outbound, decisions.md)
  const webhooks = options.queues ? undefined : startWebhookPump();
  return {
    boss,
    async stop(timeoutMs = 25_000) {
      await Promise.all([boss.stop({ graceful: true, timeout: timeoutMs }), webhooks?.stop()]);
      await sql.end();
    },
  };
}
