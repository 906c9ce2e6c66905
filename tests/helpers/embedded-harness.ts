import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { connect, setSql, type Sql } from "@/lib/db/client";
import { producer, stopProducer } from "@/lib/jobs/producer";
import type { TestDatabase } from "./db";
import type { setupWorkers } from "./workers";

/**
 * For the SIGKILL tests on the embedded database, where the worker and PGlite live in one
 * process (npm start) and killing one kills the other: `start` spawns the embedded service on
 * one data directory (the first time from the migrated template) and makes it the app's pool,
 * the producer's database and what `point` hands the test; `detach` lets go of a killed one;
 * `close` puts the test database back. Runs `body` between them.
 */
export async function onEmbeddedService(
  db: TestDatabase,
  workers: ReturnType<typeof setupWorkers>,
  point: (sql: Sql) => void,
  body: (service: { start(): Promise<ChildProcess>; detach(): Promise<void> }) => Promise<void>,
): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "crm-embedded-"));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const password = randomBytes(18).toString("base64url");
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  let conn: Sql | null = null;
  let started = 0;
  const detach = async () => {
    await stopProducer();
    await conn?.end({ timeout: 0 }).catch(() => {});
    conn = null;
  };
  const start = async () => {
    const child = await workers.spawnEmbeddedService({
      dataDir,
      port,
      password,
      fromTemplate: started++ === 0,
    });
    conn = connect(url, { max: 1 });
    point(conn);
    setSql(conn);
    process.env.DATABASE_URL = url;
    await stopProducer();
    await producer();
    return child;
  };
  try {
    await body({ start, detach });
  } finally {
    await detach();
    point(db.sql);
    setSql(db.sql);
    process.env.DATABASE_URL = db.url;
    await producer();
    // the last embedded service may still be writing its files as it stops: rm retries (ENOTEMPTY)
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}
