import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { connect } from "@/lib/db/client";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { installJobs } from "@/lib/jobs/flows/start-worker";
import { TEMPLATE_DUMP, templateDatabaseUrl } from "./template";

/**
 * Builds one migrated template per run; each test file then starts from a copy of it
 * (a PGlite data-directory dump, or CREATE DATABASE ... TEMPLATE on the real server).
 */
export default async function setup(project: TestProject) {
  const kind = project.config.env?.TEST_DB ?? process.env.TEST_DB;
  // two projects of one engine (vitest.config.ts: the files with module mocks) share one template
  const built = ((globalThis as { templatesBuilt?: Map<string, Promise<void>> }).templatesBuilt ??=
    new Map());
  const key = String(kind);
  if (!built.has(key)) built.set(key, buildTemplate(kind));
  await built.get(key);
}

async function buildTemplate(kind: string | undefined) {
  if (kind === "postgres") {
    const url = process.env.DATABASE_URL!;
    const template = templateDatabaseUrl(url);
    const admin = connect(url, { max: 1 });
    const name = new URL(template).pathname.slice(1);
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.unsafe(`create database "${name}"`);
    await admin.end();
    const sql = connect(template, { max: 1 });
    await migrate(sql);
    await sql.end();
    await installJobs(template);
    return;
  }
  const embedded = await startEmbeddedDatabase({});
  const sql = connect(embedded.url, { max: 1 });
  await migrate(sql);
  await sql.end();
  await installJobs(embedded.url, true);
  const dump = await embedded.db.dumpDataDir("gzip");
  await embedded.stop();
  await mkdir(path.dirname(TEMPLATE_DUMP), { recursive: true });
  await writeFile(TEMPLATE_DUMP, Buffer.from(await dump.arrayBuffer()));
}
