import { parseArgs } from "node:util";
import { backfillPaymentIntents, type BackfillDeps } from "./flows/backfill-payment-intents";
import { backfillRefunds } from "./flows/backfill-refunds";
import type { RetryOptions } from "./stripe-retry";
import { isUuid } from "@/lib/ids/uuid";

export const USAGE = `Usage: npm run backfill:payments -- --workspace <workspace id> [options]

Runs the payment-intent backfill until nothing is left, the refund backfill to the last
page, then the payment-intent backfill again (spec 4.11, 4.12), as the service identity.
Every step can be repeated: stop it at any time and run it again.

Options:
  --workspace <id>        the workspace (required)
  --since <unix seconds>  only refunds created at or after
  --until <unix seconds>  only refunds created at or before
  --starting-after <id>   resume the refund pages after this refund id
  --batch <n>             rows or refunds per request (default 100)
`;

/** Patient, for a person watching: six attempts, 1 s doubling to 30 s. */
export const CLI_RETRY: RetryOptions = { attempts: 6, baseDelayMs: 1000, maxDelayMs: 30_000 };

/**
 * The CLI of spec 4.12, as a function (scripts/backfill-payments.ts is its process entry).
 * Returns the exit code.
 */
export async function runBackfillCli(
  argv: string[],
  deps: BackfillDeps & { log?: (line: string) => void },
): Promise<number> {
  const log = deps.log ?? console.log;
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        workspace: { type: "string" },
        since: { type: "string" },
        until: { type: "string" },
        "starting-after": { type: "string" },
        batch: { type: "string" },
        help: { type: "boolean" },
      },
    }).values;
  } catch (error) {
    log(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    log(USAGE);
    return 0;
  }
  const workspaceId = args.workspace ?? "";
  const numeric = (v: string | undefined) =>
    v === undefined ? undefined : /^\d+$/.test(v) ? Number(v) : NaN;
  const since = numeric(args.since);
  const until = numeric(args.until);
  const batch = numeric(args.batch) ?? 100;
  if (!isUuid(workspaceId) || Number.isNaN(since) || Number.isNaN(until) || !(batch >= 1 && batch <= 100)) {
    log(
      `Give --workspace as a workspace id, --since/--until as Unix seconds and --batch from 1 to 100.\n\n${USAGE}`,
    );
    return 2;
  }
  const retry: RetryOptions = {
    ...(deps.retry ?? CLI_RETRY),
    onRetry: ({ attempt, delayMs, reason }) =>
      log(`  Stripe: ${reason}; retrying in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt})`),
  };
  const run = { ...deps, retry };

  const fail = (message: string) => {
    log(`  ${message}`);
    return false;
  };
  const drainIntents = async (phase: string): Promise<boolean> => {
    log(`${phase}: payment intents`);
    for (let pass = 1; ; pass++) {
      const result = await backfillPaymentIntents(run, { workspaceId, limit: batch });
      if ("error" in result) return fail(result.error);
      const { processed, outcomes: o, remaining } = result.data;
      log(
        `  pass ${pass}: ${processed} rows (${o.intent} intent, ${o.none} none, ${o.error_fetching} error_fetching, ` +
          `${o.invalid_format} invalid_format); ${remaining} remaining`,
      );
      if (remaining === 0) return true;
      if (processed === 0) return fail("no progress; stopping");
    }
  };

  let cursor = args["starting-after"];
  try {
    if (!(await drainIntents("Phase 1 of 3"))) return 1;
    log("Phase 2 of 3: refunds");
    for (let page = 1; ; page++) {
      const result = await backfillRefunds(run, {
        workspaceId,
        since,
        until,
        startingAfter: cursor,
        limit: batch,
      });
      if ("error" in result) {
        fail(result.error);
        return 1;
      }
      const { refunds, charges, applied: a, nextCursor } = result.data;
      log(
        `  page ${page}: ${refunds} refunds, ${charges} charges (tier 1: ${a.tier1}, tier 2: ${a.tier2}, ` +
          `unchanged: ${a.unchanged}, unmatched: ${a.unmatched})${nextCursor ? `; next cursor ${nextCursor}` : ""}`,
      );
      if (!nextCursor) break;
      cursor = nextCursor;
    }
    if (!(await drainIntents("Phase 3 of 3"))) return 1;
    log("Done.");
    return 0;
  } catch (error) {
    log(`Failed: ${(error as Error).message}`);
    log(
      cursor
        ? `Nothing is lost: run the command again, or resume the refunds with --starting-after ${cursor}.`
        : "Nothing is lost: run the same command again to continue.",
    );
    return 1;
  }
}
