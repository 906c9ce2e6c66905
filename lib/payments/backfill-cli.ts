import { parseArgs } from "node:util";
import type { BackfillDeps } from "./flows/backfill-payment-intents";
import { runPaymentsBackfill } from "./flows/run-payments-backfill";
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

/**
 * The CLI of spec 4.12, as a function (scripts/backfill-payments.ts is its process entry): its
 * arguments read and checked, then the library's run (flows/run-payments-backfill.ts), its
 * outcome told as an exit code.
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
  const outcome = await runPaymentsBackfill(
    { ...deps, log },
    { workspaceId, since, until, startingAfter: args["starting-after"], batch },
  );
  if (outcome.done) return 0;
  if (outcome.thrown)
    log(
      outcome.cursor
        ? `Nothing is lost: run the command again, or resume the refunds with --starting-after ${outcome.cursor}.`
        : "Nothing is lost: run the same command again to continue.",
    );
  return 1;
}
