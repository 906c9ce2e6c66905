/**
 * Benchmark of GET /api/v1/public/events against `next start` on the real Postgres (spec 4.14):
 * a workspace with 500 events (half past, half upcoming; four in five published, some with
 * paid ticket classes), 32 connections, the key as a Bearer token; and the no-database
 * health route of the same server, in the same run, for the ratio.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/crm_events npx tsx scripts/bench/events.ts
 *
 * It creates and drops its own database (crm_bench_events) beside DATABASE_URL's, reuses
 * `.next` when it is newer than the sources (else runs `next build`), and listens on 3271.
 */
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { connect } from "../../lib/db/client";
import { hashApiKey, newApiKey } from "../../lib/api-keys/hash-api-key";
import {
  databaseCpuMs,
  ensureBuild,
  processTreeCpuMs,
  startNextServer,
  stopNextServer,
} from "./lib/next-server";
import { freshDatabase } from "./lib/database";
import { benchEvents } from "./lib/events-data";
import { verdict } from "./lib/verdict";

const PORT = Number(process.env.BENCH_EVENTS_PORT ?? 3271);
const CONNECTIONS = 32;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const EVENTS = 500;
const BENCH_DB = "crm_bench_events";

/** 500 events: half ended, half upcoming; 4 in 5 published; every third with paid classes. */
async function seed(url: string): Promise<{ key: string; returned: number }> {
  const sql = connect(url, { max: 1 });
  const [ws] = await sql`insert into public.workspaces (name) values ('Bench') returning id`;
  const rows = benchEvents(ws.id, EVENTS);
  await sql`insert into public.events ${sql(rows)}`;
  const key = newApiKey();
  await sql`insert into public.api_keys (workspace_id, name, key_hash) values (${ws.id}, 'Bench', ${hashApiKey(key)})`;
  const [{ n }] = await sql`
    select count(*)::int as n from public.events where workspace_id = ${ws.id} and is_published and end_time > now()`;
  await sql.end();
  return { key, returned: n };
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
  /** Postgres backends' CPU per request in ms */
  dbCpuMs: number;
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
  const [cpuBefore, dbBefore] = [processTreeCpuMs(serverPid), databaseCpuMs(BENCH_DB)];
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}${urlPath}`,
    connections: CONNECTIONS,
    duration,
    headers,
  });
  const requests = Math.max(1, result.requests.total);
  return {
    cpuMs: (processTreeCpuMs(serverPid) - cpuBefore) / requests,
    dbCpuMs: (databaseCpuMs(BENCH_DB) - dbBefore) / requests,
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
    dbCpuMs: median(samples.map((s) => s.dbCpuMs)),
  };
}

export default async function run(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base)
    throw new Error("Set DATABASE_URL to a Postgres server (the benchmark creates its own database there).");
  ensureBuild();
  const db = await freshDatabase(base, BENCH_DB);
  let server: Awaited<ReturnType<typeof startNextServer>> | undefined;
  try {
    const { key, returned } = await seed(db.url);
    server = await startNextServer(PORT, { DATABASE_URL: db.url });
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
        "db CPU ms/req": r.dbCpuMs.toFixed(2),
        errors: r.errors,
        "ratio to health": (r.rps / health.rps).toFixed(2),
      })),
    );
    verdict("public events API / health", events.rps / health.rps, { atLeast: 0.9 });
  } finally {
    if (server) await stopNextServer(server);
    await db.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
