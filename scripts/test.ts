/**
 * npm test: everything, in order of cost, stopping at the first failure.
 * Type check, lint, formatting, unit and integration tests (PGlite, plus the real server
 * when DATABASE_URL is set), then the browser tests against the built app.
 * `npm test -- --skip-e2e` leaves out the browser tests.
 */
import { spawnSync } from "node:child_process";

const steps: [string, string, string[]][] = [
  ["type check", "npx", ["tsc", "--noEmit"]],
  ["lint", "npx", ["eslint", ".", "--max-warnings=0"]],
  ["format", "npx", ["prettier", "--check", "."]],
  ["unit and integration tests", "npx", ["vitest", "run"]],
];
if (!process.argv.includes("--skip-e2e")) steps.push(["end-to-end tests", "npx", ["playwright", "test"]]);

for (const [label, cmd, args] of steps) {
  console.log(`\n=== ${label}: ${cmd} ${args.join(" ")}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: "inherit", env: process.env });
  console.log(
    `=== ${label}: ${result.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}
