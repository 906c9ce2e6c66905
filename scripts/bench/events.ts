/**
 * Benchmark of GET /api/v1/public/events against `next start` on the real Postgres (issue 7):
 * a workspace with 500 events (half past, half upcoming; four in five published, some with
 * paid ticket classes), 32 connections, the key as a Bearer token; and the no-database
 * health route of the same server, in the same run, for the ratio.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/crm_events npx tsx scripts/bench/events.ts
 *
 * It creates and drops its own database (crm_bench_events) beside DATABASE_URL's, reuses
 * `.next` when it is newer than the sources (else runs `next build`), and listens on 3271.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { connect } from "../../lib/db/client";
import { migrate } from "../../lib/db/migrate";
import { hashApiKey, newApiKey } from "../../lib/api-keys/hash-api-key";

const PORT = Number(process.env.BENCH_EVENTS_PORT ?? 3271);
const CONNECTIONS = 32;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const EVENTS = 500;
const root = process.cwd();

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function ensureBuild(): void {
  let built = 0;
  try {
    built = statSync(path.join(root, ".next", "BUILD_ID")).mtimeMs;
  } catch {}
  const sources = Math.max(...["app", "lib", "components"].map((d) => newestSource(path.join(root, d))));
  if (built > sources) return;
  console.log("building the app (next build)…");
  const result = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error("next build failed");
}

async function createDatabase(base: string) {
  const name = "crm_bench_events";
  const admin = connect(base, { max: 1 });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** 500 events: half ended, half upcoming; 4 in 5 published; every third with paid classes. */
async function seed(url: string): Promise<{ key: string; returned: number }> {
  const sql = connect(url, { max: 1 });
  await migrate(sql);
  const [ws] = await sql`insert into public.workspaces (name) values ('Bench') returning id`;
  const day = 86_400_000;
  const rows = Array.from({ length: EVENTS }, (_, i) => {
    const start = new Date(Date.now() + (i - EVENTS / 2) * day + 3_600_000);
    return {
      workspace_id: ws.id,
      name: `Event ${i}`,
      description: `<p>Event number <strong>${i}</strong>: talks, food and music.</p>`,
      location: i % 4 === 0 ? "Online" : `Hall ${i % 7}, 1 Main St, Springfield`,
      start_time: start,
      end_time: new Date(start.getTime() + 3 * 3_600_000),
      timezone: "America/New_York",
      is_published: i % 5 !== 0,
      ticket_price: i % 3 === 0 ? "25.00" : null,
      ticket_class_count: i % 3 === 0 ? 1 + (i % 2) : 0,
    };
  });
  await sql`insert into public.events ${sql(rows)}`;
  const key = newApiKey();
  await sql`insert into public.api_keys (workspace_id, name, key_hash) values (${ws.id}, 'Bench', ${hashApiKey(key)})`;
  const [{ n }] = await sql`
    select count(*)::int as n from public.events where workspace_id = ${ws.id} and is_published and end_time > now()`;
  await sql.end();
  return { key, returned: n };
}

async function startServer(databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(path.join(root, "node_modules", ".bin", "next"), ["start", "-p", String(PORT)], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATABASE_EMBEDDED: "0",
      PORT: String(PORT),
      NODE_ENV: "production",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/api/health`)).ok) return child;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGTERM");
  throw new Error(`next start did not answer on ${PORT}`);
}

const TICKS_PER_SECOND = 100;

/** CPU seconds used so far by a process and its descendants (Linux /proc), or NaN elsewhere. */
function treeCpuSeconds(rootPid: number): number {
  try {
    const stats = readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .map((d) => {
        try {
          const fields = readFileSync(`/proc/${d}/stat`, "utf8")
            .replace(/^.*\) /, "")
            .split(" ");
          return { pid: Number(d), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
        } catch {
          return null;
        }
      })
      .filter((s): s is { pid: number; ppid: number; ticks: number } => s !== null);
    const inTree = new Set([rootPid]);
    for (let grew = true; grew;) {
      grew = false;
      for (const s of stats)
        if (!inTree.has(s.pid) && inTree.has(s.ppid)) {
          inTree.add(s.pid);
          grew = true;
        }
    }
    return stats.filter((s) => inTree.has(s.pid)).reduce((n, s) => n + s.ticks, 0) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

let serverPid = 0;

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  bytes: number;
  /** server CPU (the Next.js process tree, not Postgres) per request in ms: steadier than req/s on a shared machine */
  cpuMs: number;
}

/** `refused`: the route is expected to answer 4xx, which is then not an error. */
async function load(
  urlPath: string,
  {
    headers = {},
    duration = DURATION,
    refused = false,
  }: { headers?: Record<string, string>; duration?: number; refused?: boolean } = {},
): Promise<Sample> {
  const cpuBefore = treeCpuSeconds(serverPid);
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}${urlPath}`,
    connections: CONNECTIONS,
    duration,
    headers,
  });
  const cpuMs = ((treeCpuSeconds(serverPid) - cpuBefore) * 1000) / Math.max(1, result.requests.total);
  return {
    cpuMs,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + (refused ? 0 : result.non2xx),
    bytes: result.throughput.average,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The median round of each figure; errors summed. */
function summarise(samples: Sample[]): Sample {
  return {
    rps: median(samples.map((s) => s.rps)),
    p50: median(samples.map((s) => s.p50)),
    p99: median(samples.map((s) => s.p99)),
    errors: samples.reduce((n, s) => n + s.errors, 0),
    bytes: median(samples.map((s) => s.bytes)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
  };
}

export default async function run(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base)
    throw new Error("Set DATABASE_URL to a Postgres server (the benchmark creates its own database there).");
  ensureBuild();
  const db = await createDatabase(base);
  let server: ChildProcess | undefined;
  try {
    const { key, returned } = await seed(db.url);
    server = await startServer(db.url);
    serverPid = server.pid ?? 0;
    const auth = { Authorization: `Bearer ${key}` };
    const unknownKey = { Authorization: "Bearer evk_unknown" };
    const body = await (
      await fetch(`http://127.0.0.1:${PORT}/api/v1/public/events`, { headers: auth })
    ).text();
    await load("/api/v1/public/events", { headers: auth, duration: 3 });
    await load("/api/health", { duration: 2 });
    // alternating rounds, so both routes see the same machine (it is shared)
    const healthRounds: Sample[] = [];
    const eventRounds: Sample[] = [];
    const refusedRounds: Sample[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      healthRounds.push(await load("/api/health"));
      eventRounds.push(await load("/api/v1/public/events", { headers: auth }));
      // diagnostic: the key check alone (an unknown key is answered 401 after the lookup)
      refusedRounds.push(
        await load("/api/v1/public/events", { headers: unknownKey, duration: DURATION / 2, refused: true }),
      );
    }
    const health = { label: "GET /api/health (no database)", ...summarise(healthRounds) };
    const events = {
      label: `GET /api/v1/public/events (${returned} of ${EVENTS} events)`,
      ...summarise(eventRounds),
    };
    console.log(
      `\nPublic events API: ${CONNECTIONS} connections, median of ${ROUNDS} alternating ${DURATION}-s rounds, next start on Postgres, body ${(body.length / 1024).toFixed(1)} KiB\n`,
    );
    console.table(
      [
        health,
        events,
        { label: "  …unknown key: 401 after the key lookup", ...summarise(refusedRounds) },
      ].map((r) => ({
        route: r.label,
        "req/s": Math.round(r.rps),
        "p50 ms": r.p50,
        "p99 ms": r.p99,
        "MB/s": (r.bytes / 1e6).toFixed(1),
        "server CPU ms/req": r.cpuMs.toFixed(2),
        errors: r.errors,
        "ratio to health": (r.rps / health.rps).toFixed(2),
      })),
    );
  } finally {
    server?.kill("SIGTERM");
    await db.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
