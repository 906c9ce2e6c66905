/**
 * npm test: everything, in order of cost, stopping at the first failure.
 * Type check, then lint and formatting side by side, unit and integration tests (PGlite, plus the real server
 * when DATABASE_URL is set), then the browser tests against the built app.
 * - The browser is found (or installed) first, so a machine without one learns it at once
 *   (scripts/test-browser.ts).
 * - The app is built once, in the background from the type check's end (lint and formatting use
 *   one core each and run side by side; vitest mostly waits on databases and workers), and reused by the
 *   browser tests' server: scripts/build-stamp.ts skips the build when .next is current.
 * - Each stage's wall time is printed as it ends, and all of them with the total at the end.
 * `npm test -- --skip-e2e` leaves out the browser tests.
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { buildIfStale } from "./build-stamp";
import { ensureBrowser } from "./test-browser";

const e2e = !process.argv.includes("--skip-e2e");
const startedAll = Date.now();
const times: [string, number][] = [];
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function summary(outcome: string) {
  console.log("\n=== npm test: wall time per stage");
  for (const [label, ms] of times) console.log(`    ${label.padEnd(34)} ${seconds(ms).padStart(9)}`);
  console.log(`    ${"total".padEnd(34)} ${seconds(Date.now() - startedAll).padStart(9)}  (${outcome})`);
}

const stopBuild = new AbortController();

function fail(code: number): never {
  stopBuild.abort();
  summary("FAILED");
  process.exit(code);
}

/**
 * Runs one stage (asynchronously: the background build's output keeps flowing meanwhile). A
 * `quiet` stage runs beside others: its output is held and printed in one piece when it ends.
 */
async function stage(
  label: string,
  cmd: string,
  args: string[],
  env = process.env,
  { quiet = false } = {},
): Promise<void> {
  console.log(`\n=== ${label}: ${cmd} ${args.join(" ")}`);
  const started = Date.now();
  let held = "";
  const status = await new Promise<number>((resolve) => {
    const child = spawn(cmd, args, { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit", env });
    child.stdout?.on("data", (chunk: Buffer) => (held += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (held += chunk.toString()));
    child.on("exit", (code) => resolve(code ?? 1));
  });
  const ms = Date.now() - started;
  times.push([label, ms]);
  if (held) process.stdout.write(`--- ${label}:\n${held}`);
  console.log(`=== ${label}: ${status === 0 ? "ok" : "FAILED"} in ${seconds(ms)}`);
  if (status !== 0) fail(status);
}

const env = { ...process.env };
if (e2e) {
  const browser = ensureBrowser();
  if (!browser) fail(1);
  env.CHROMIUM_PATH = browser;
}

// first and alone: it reads .next/types, which the build writes
await stage("type check", "npx", ["tsc", "--noEmit"]);

// the browser tests' server (scripts/e2e-server.ts) serves this APP_URL; a build for it is reused
let build: Promise<{ code: number; built: boolean; ms: number }> | undefined;
const buildLog = path.join(process.cwd(), ".data", "test", "next-build.log");
if (e2e) {
  mkdirSync(path.dirname(buildLog), { recursive: true });
  const appUrl = `http://localhost:${process.env.E2E_PORT ?? 3100}`;
  console.log(`\n=== app build: in the background while the checks and vitest run (output: ${buildLog})`);
  const started = Date.now();
  build = buildIfStale({ ...env, APP_URL: appUrl }, { log: buildLog, signal: stopBuild.signal }).then(
    (r) => ({
      ...r,
      ms: Date.now() - started,
    }),
  );
}

// lint and formatting each use one core: side by side, beside the build's start
await Promise.all([
  stage("lint", "npx", ["eslint", ".", "--max-warnings=0"], process.env, { quiet: true }),
  stage("format", "npx", ["prettier", "--check", "."], process.env, { quiet: true }),
]);

await stage("unit and integration tests", "npx", ["vitest", "run"], env);

if (build) {
  const waited = Date.now();
  const { code, built, ms } = await build;
  times.push([built ? "app build (beside checks, vitest)" : "app build (current: skipped)", ms]);
  times.push(["  waited for it after vitest", Date.now() - waited]);
  console.log(
    `=== app build: ${code === 0 ? (built ? "built" : "current, skipped") : `FAILED (see ${buildLog})`} in ${seconds(ms)}`,
  );
  if (code !== 0) fail(code);
  await stage("end-to-end tests", "npx", ["playwright", "test"], env);
}
summary("ok");
