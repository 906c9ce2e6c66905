/**
 * The embedded service without its web server, as a process of its own: PGlite persisted in
 * DATA_DIR and served on EMBEDDED_DB_PORT behind EMBEDDED_DB_PASSWORD, and a job worker, in one process, as `npm start`
 * arranges them (scripts/start.ts). On the embedded database a SIGKILL of the worker is a
 * SIGKILL of the database too; this is what tests kill. FROM_TEMPLATE=1 starts the data
 * directory from the migrated test template (the file TEMPLATE_DUMP names). Prints "ready" when
 * the worker runs.
 */
import { readFile } from "node:fs/promises";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { startWorker } from "@/worker/start";

async function main() {
  const db = await startEmbeddedDatabase({
    dataDir: process.env.DATA_DIR!,
    port: Number(process.env.EMBEDDED_DB_PORT),
    password: process.env.EMBEDDED_DB_PASSWORD,
    loadDataDir: process.env.TEMPLATE_DUMP
      ? new Blob([await readFile(process.env.TEMPLATE_DUMP)])
      : undefined,
  });
  process.env.DATABASE_URL = db.url;
  process.env.DATABASE_EMBEDDED = "1";
  await startWorker({ url: db.url, embedded: true });
  process.stdout.write("ready\n");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
