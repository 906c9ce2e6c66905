import { readFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { connect, setSql, type Sql } from "@/lib/db/client";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { producer, stopProducer } from "@/lib/jobs/producer";
import { TEMPLATE_DUMP, templateDatabaseUrl } from "./template";

export interface TestDatabase {
  /** superuser connection: for arranging and asserting, never used by app code */
  sql: Sql;
  url: string;
  kind: "pglite" | "postgres";
}

/**
 * A fresh, migrated database for one test file, installed as the app's pool so that
 * withUser/withService use it. Call at the top level of a test file.
 */
export function setupTestDatabase(): TestDatabase {
  const handle = {} as TestDatabase;
  const baseUrl = process.env.DATABASE_URL;
  let stop = async () => {};
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
      stop = async () => {
        await handle.sql.end();
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
    setSql(handle.sql);
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
  });
  return handle;
}
