/**
 * A process running transactions against the database at argv[2], as a worker or a web server
 * does, with the process guard `npm start` and `npm run worker` install
 * (lib/observability/process-guard.ts). Prints `committed` or `failed <code>` per transaction;
 * tests/integration/database-failover.test.ts kills the server under it and checks that the
 * process lives on and commits again once the server is back.
 */
import { connect } from "../../lib/db/client";
import { keepServingOnDriverErrors } from "../../lib/observability/process-guard";

keepServingOnDriverErrors("transactions-under-kill");
const sql = connect(process.argv[2], { max: 4, connectTimeoutSeconds: 2 });

async function transaction(): Promise<void> {
  try {
    await sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(1)`;
      await tx`select pg_sleep(0.02)`;
      await tx`select count(*) from pg_class`;
    });
    console.log("committed");
  } catch (error) {
    console.log(`failed ${(error as { code?: string }).code ?? (error as Error).message}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// four loops at once: some are mid-transaction whenever the server goes
for (let i = 0; i < 4; i++)
  void (async () => {
    for (;;) await transaction();
  })();
process.on("SIGTERM", () => process.exit(0));
