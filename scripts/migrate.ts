/**
 * npm run db:migrate: apply pending migrations to DATABASE_DIRECT_URL, else DATABASE_URL (or the
 * embedded database). A migration wants a session of its own: not a transaction pooler.
 */
import path from "node:path";
import { connect, directDatabaseUrl } from "../lib/db/client";
import { embeddedDatabasePassword, startEmbeddedDatabase } from "../lib/db/embedded";
import { MigrationRefusedError, migrate } from "../lib/db/migrate";
import { installJobs } from "../lib/jobs/flows/start-worker";

async function main() {
  let url = directDatabaseUrl();
  const embedded = !url;
  let stop = async () => {};
  if (!url) {
    const dataRoot = process.env.DATA_DIR ?? ".data";
    const db = await startEmbeddedDatabase({
      dataDir: path.join(dataRoot, "pglite"),
      password: embeddedDatabasePassword(dataRoot),
    });
    url = db.url;
    stop = db.stop;
  }
  const sql = connect(url, { max: 1 });
  const applied = await migrate(sql, (line) => console.log(line));
  console.log(applied.length ? `${applied.length} migration(s) applied` : "database is up to date");
  await sql.end();
  await installJobs(url, embedded); // the job engine's schema and queues (pg-boss)
  await stop();
}

main().catch((error) => {
  console.error(error instanceof MigrationRefusedError ? error.message : error);
  process.exit(1);
});
