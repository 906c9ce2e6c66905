import { databaseUnavailable } from "@/lib/db/unavailable";
import { log } from "./log";

/**
 * Whether an error that reached the top of the process came from the database driver: a lost
 * or read-only database (lib/db/unavailable.ts), or anything thrown from postgres.js's own code
 * (its stack names node_modules/postgres). Such an error belongs to one connection, which the
 * pool replaces; the process and its other requests are fine.
 */
export function isDriverError(error: unknown): boolean {
  if (databaseUnavailable(error)) return true;
  const stack = error instanceof Error ? (error.stack ?? "") : "";
  return /[\\/]node_modules[\\/]postgres[\\/]/.test(stack);
}

const guarded = globalThis as unknown as { __crmProcessGuard?: boolean };

/**
 * No error of the database driver ends the process (docs/decisions.md "Failover: the driver picks
 * the primary"): an uncaught exception or unhandled rejection from it is logged and the process
 * keeps serving. Anything else keeps Node's default meaning, a fault of unknown extent: it is logged
 * as fatal and the process exits 1, for its supervisor (scripts/start.ts, the platform) to start a
 * fresh one. Installed once per process by `npm start`, `npm run worker` and the web server.
 */
export function keepServingOnDriverErrors(what: string): void {
  if (guarded.__crmProcessGuard) return;
  guarded.__crmProcessGuard = true;
  const handle = (kind: "exception" | "rejection") => (error: unknown) => {
    if (isDriverError(error)) {
      log.error(
        { err: error, kind, process: what },
        `${what}: a database driver error reached the top; kept serving`,
      );
      return;
    }
    log.fatal({ err: error, kind, process: what }, `${what}: uncaught ${kind}; exiting`);
    process.exitCode = 1;
    // let the log line out before exiting
    setTimeout(() => process.exit(1), 100).unref();
  };
  process.on("uncaughtException", handle("exception"));
  process.on("unhandledRejection", handle("rejection"));
}
