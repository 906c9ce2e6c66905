import { PgBoss } from "pg-boss";
import { connect } from "@/lib/db/client";
import { poolDb } from "./boss-db";
import { JOBS_SCHEMA } from "./queues";
import { log } from "@/lib/observability/log";

const globalForJobs = globalThis as unknown as { __crmProducer?: Promise<PgBoss> };

/**
 * The pg-boss of a process that only enqueues (the web server): no supervision, no cron, no
 * migration (the worker and `npm start` install the schema). It has a connection of its own
 * for its few reads (the queue list it caches): the jobs themselves are written through the
 * caller's transaction, which on the embedded database holds the app pool's one connection.
 */
export function producer(): Promise<PgBoss> {
  if (!globalForJobs.__crmProducer) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set (npm start sets it for the embedded database)");
    const boss = new PgBoss({
      db: poolDb(connect(url, { max: 1 })),
      schema: JOBS_SCHEMA,
      supervise: false,
      schedule: false,
      migrate: false,
    });
    boss.on("error", (error) => log.error({ err: error }, "jobs (producer): pg-boss error"));
    globalForJobs.__crmProducer = boss.start().catch((error) => {
      globalForJobs.__crmProducer = undefined;
      throw error;
    });
  }
  return globalForJobs.__crmProducer;
}

/** Stops the producer (tests and scripts that change databases). */
export async function stopProducer(): Promise<void> {
  const pending = globalForJobs.__crmProducer;
  globalForJobs.__crmProducer = undefined;
  if (pending) await (await pending.catch(() => null))?.stop({ graceful: false });
}
