/**
 * npm run backfill:payments -- --workspace <id>: the payment backfills of spec 4.11 and 4.12
 * from the command line, with the service identity (DATABASE_URL; RLS bypassed) and Stripe
 * (STRIPE_SECRET_KEY, STRIPE_API_BASE). See lib/payments/backfill-cli.ts.
 */
import { getSql } from "../lib/db/client";
import { runBackfillCli } from "../lib/payments/backfill-cli";
import { stripeClient } from "../lib/payments/stripe-client";

async function main(): Promise<number> {
  if (!process.env.DATABASE_URL) {
    console.error(
      "Set DATABASE_URL to the database to backfill. For the embedded database, start the app with " +
        "EMBEDDED_DB_PORT=<port> and use postgres://postgres:<password>@127.0.0.1:<port>/postgres, the password " +
        "being the one in .data/db-password.",
    );
    return 2;
  }
  if (!process.env.STRIPE_SECRET_KEY) {
    console.error(
      "Set STRIPE_SECRET_KEY (the platform's secret key; the workspace's connected account is used).",
    );
    return 2;
  }
  try {
    return await runBackfillCli(process.argv.slice(2), { stripe: stripeClient() });
  } finally {
    await getSql().end();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
