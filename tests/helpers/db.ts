import { readFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { connect, setSql, type Sql } from "@/lib/db/client";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { producer, stopProducer } from "@/lib/jobs/producer";
import { startPgBouncer } from "./pgbouncer";
import { TEMPLATE_DUMP, templateDatabaseUrl } from "./template";

export interface TestDatabase {
  /** superuser connection: for arranging and asserting, never used by app code */
  sql: Sql;
  url: string;
  kind: "pglite" | "postgres";
}

/**
 * A fresh, migrated database for one test file, installed as the app's pool so that
 * withUser/withService use it. Call at the top level of a test file. With TEST_POOLER=1 (and
 * TEST_DB=postgres) the app reaches it through a PgBouncer in transaction mode of its own.
 */
export function setupTestDatabase(): TestDatabase {
  const handle = {} as TestDatabase;
  const baseUrl = process.env.DATABASE_URL;
  let stop = async () => {};
  let appSql: Sql | undefined;
  beforeAll(async () => {
    const kind = (process.env.TEST_DB as "pglite" | "postgres") ?? "pglite";
    handle.kind = kind;
    if (kind === "postgres") {
      const base = process.env.DATABASE_URL!;
      const template = new URL(templateDatabaseUrl(base)).pathname.slice(1);
      const name = `crm_test_${randomBytes(6).toString("hex")}`;
      const admin = connect(base, { max: 1 });
      await admin.unsafe(`create database "${name}" template "${template}"`);
      const u = new URL(base);
      u.pathname = `/${name}`;
      handle.url = u.toString();
      handle.sql = connect(handle.url, { max: 10 });
      // TEST_POOLER=1: the app's pool (and workers, and the producer) reach the database through
      // PgBouncer in transaction mode, as Supabase's pooler; the test's own `sql` stays direct
      const bouncer = process.env.TEST_POOLER === "1" ? await startPgBouncer(handle.url) : null;
      if (bouncer) {
        process.env.DATABASE_DIRECT_URL = handle.url;
        const pooled = new URL(bouncer.url);
        pooled.searchParams.set("pgbouncer", "true");
        handle.url = pooled.toString();
        appSql = connect(handle.url, { max: 10 });
      }
      stop = async () => {
        await appSql?.end();
        await handle.sql.end();
        await bouncer?.stop();
        delete process.env.DATABASE_DIRECT_URL;
        await admin.unsafe(`drop database if exists "${name}" with (force)`);
        await admin.end();
      };
    } else {
      const dump = await readFile(TEMPLATE_DUMP);
      const embedded = await startEmbeddedDatabase({ loadDataDir: new Blob([dump]) });
      handle.url = embedded.url;
      handle.sql = connect(embedded.url, { max: 1 });
      stop = async () => {
        await handle.sql.end();
        await embedded.stop();
      };
    }
    setSql(appSql ?? handle.sql);
    // the job engine's producer (lib/jobs/producer.ts) opens its connection from DATABASE_URL
    process.env.DATABASE_URL = handle.url;
    if (kind === "pglite") process.env.DATABASE_EMBEDDED = "1";
    await producer(); // as instrumentation.ts does at server start: before any transaction
  });
  afterAll(async () => {
    await stopProducer();
    if (baseUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = baseUrl;
    setSql(undefined);
    await stop();
    // the test file's module stays loaded in its worker after it ends (vitest.config.ts,
    // `isolate: false`), and this handle with it: it lets go of the database (a PGlite instance
    // is hundreds of megabytes) so that the next files do not pile them up
    stop = async () => {};
    appSql = undefined;
    Object.assign(handle, { sql: undefined, url: undefined });
  });
  return handle;
}
