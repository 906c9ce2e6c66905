/**
 * What the HTTP benchmarks (forms, payments, events) share: a production build of the app,
 * `next start` on a fresh database (freshDatabase in ./database), and the CPU the server
 * and the database spend (Linux /proc), which, unlike requests per second, hardly depends on
 * what else the machine runs.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { startPgBouncer, type RunningPgBouncer } from "../../../tests/helpers/pgbouncer";

const root = process.cwd();

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Reuses `.next` when it is newer than every source file (BENCH_BUILD=1 or `force` builds). */
export function ensureBuild(options: { force?: boolean } = {}): void {
  let built = 0;
  try {
    built = statSync(path.join(root, ".next", "BUILD_ID")).mtimeMs;
  } catch {}
  const sources = Math.max(...["app", "lib", "components"].map((d) => newestSource(path.join(root, d))));
  if (!options.force && process.env.BENCH_BUILD !== "1" && built > sources) return;
  console.log("building the app (next build)…");
  const result = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error("next build failed");
}

/**
 * `next start` on `port` with this process's environment plus `env` (an undefined value
 * unsets the variable), once /api/health answers.
 */
export async function startNextServer(
  port: number,
  env: Record<string, string | undefined>,
): Promise<ChildProcess> {
  const merged: NodeJS.ProcessEnv = { ...process.env, DATABASE_EMBEDDED: "0", ...env };
  // BENCH_POOLER=prepare-false: the direct connection without prepared statements;
  // BENCH_POOLER=pgbouncer: the server reaches its database through a transaction-mode PgBouncer
  let bouncer: RunningPgBouncer | undefined;
  if (process.env.BENCH_POOLER === "prepare-false") merged.DATABASE_POOL_MODE = "transaction";
  if (process.env.BENCH_POOLER === "pgbouncer" && merged.DATABASE_URL) {
    bouncer = await startPgBouncer(merged.DATABASE_URL);
    merged.DATABASE_URL = `${bouncer.url}${bouncer.url.includes("?") ? "&" : "?"}pgbouncer=true`;
  }
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete merged[name]; // unset
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops
  const profile = process.env.BENCH_CPU_PROF;
  const next = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const args = [
    ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : []),
    next,
    "start",
    "-p",
    String(port),
  ];
  const child = spawn(process.execPath, args, {
    env: { ...merged, NODE_ENV: "production", PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (bouncer) child.once("exit", () => void bouncer.stop());
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 200));
  }
  await stopNextServer(child);
  throw new Error(`next start did not answer /api/health on ${port} within 60 s`);
}

export async function stopNextServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

const TICKS_PER_SECOND = 100; // USER_HZ

interface ProcStat {
  pid: number;
  ppid: number;
  ticks: number;
  cmdline: string;
}

function processes(): ProcStat[] {
  const all: ProcStat[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8")
        .replace(/^.*\) /, "")
        .split(" ");
      all.push({
        pid: Number(entry),
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]), // utime + stime
        cmdline: readFileSync(`/proc/${entry}/cmdline`, "utf8"),
      });
    } catch {} // the process ended meanwhile
  }
  return all;
}

/** CPU milliseconds used so far by a process and its descendants, or NaN off Linux. */
export function processTreeCpuMs(rootPid: number): number {
  try {
    const all = processes();
    const tree = new Set([rootPid]);
    for (let grew = true; grew;) {
      grew = false;
      for (const p of all)
        if (!tree.has(p.pid) && tree.has(p.ppid)) {
          tree.add(p.pid);
          grew = true;
        }
    }
    const ticks = all.filter((p) => tree.has(p.pid)).reduce((n, p) => n + p.ticks, 0);
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** CPU milliseconds used so far by the Postgres backends connected to `database` (by process title). */
export function databaseCpuMs(database: string): number {
  try {
    const ticks = processes()
      .filter((p) => p.cmdline.includes(` ${database} `))
      .reduce((n, p) => n + p.ticks, 0);
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}
