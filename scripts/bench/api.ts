/**
 * npm run bench -- api: the REST API v1 (docs/api.md), three measurements.
 * - sync: BENCH_API_SYNC contacts (default 100,000) through POST /api/v1/contacts/batch (1,000 a
 *   request, one after another, in process: the route handler as Next calls it) against the CSV
 *   import (spec 4.15) of the same rows; ratio batch time / import time.
 * - list: BENCH_API_LIST contacts (default 1,000,000) in one workspace; GET /api/v1/contacts p50/p95
 *   for page 1 and for a page 2,000 cursors deep (in process), next to getContacts' page 2,000 by
 *   offset as the dashboard reads it.
 * - http: contact create through `next start` against its health route (ratio), as the other
 *   HTTP benchmarks (autocannon, BENCH_DURATION seconds, 32 connections). Needs a build (`next
 *   build` runs when .next is older than the sources). BENCH_API_PARTS=sync,list skips it.
 * Each part creates and drops its own database beside DATABASE_URL's.
 */
import { Readable } from "node:stream";
import autocannon from "autocannon";
import * as batchRoute from "../../app/api/v1/contacts/batch/route";
import * as contactsRoute from "../../app/api/v1/contacts/route";
import { hashApiKey, newApiKey } from "../../lib/api-keys/hash-api-key";
import { getContacts } from "../../lib/contacts/get-contacts";
import { importContactsCsv } from "../../lib/contacts/import-contacts-csv";
import { connect, type Sql } from "../../lib/db/client";
import { withService } from "../../lib/db/doors";
import type { BenchModule } from "./index";
import { loadContacts, withoutIndexes } from "./lib/contacts-data";
import { analyzeAsAutovacuumWould, benchDatabase, freshDatabase, percentile, table } from "./lib/database";
import { ensureBuild, startNextServer, stopNextServer } from "./lib/next-server";

const SYNC = Number(process.env.BENCH_API_SYNC ?? 100_000);
const LIST = Number(process.env.BENCH_API_LIST ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const PORT = Number(process.env.BENCH_API_PORT ?? 3262);
const PARTS = (process.env.BENCH_API_PARTS ?? "sync,list,http").split(",");

async function keyFor(sql: Sql, workspaceId: string): Promise<string> {
  const raw = newApiKey();
  await sql`insert into api_keys (workspace_id, name, key_hash, scopes)
            values (${workspaceId}, 'Bench', ${hashApiKey(raw)}, '{contacts:read,contacts:write}')`;
  return raw;
}

type Handler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call(handler: Handler, key: string, path: string, body?: unknown): Promise<unknown> {
  const response = await handler(
    new Request(`http://bench.test${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

const person = (i: number) => ({
  email: `sync${i}@example.com`,
  first_name: `First${i % 997}`,
  last_name: `Last${i % 991}`,
  city: `City ${i % 500}`,
});

async function sync(baseUrl: string): Promise<(string | number)[][]> {
  const db = await benchDatabase(baseUrl, "crm_bench_api_sync", { keep: false });
  try {
    const [a] = await db.sql`insert into workspaces (name) values ('Batch') returning id`;
    const [b] = await db.sql`insert into workspaces (name) values ('CSV') returning id`;
    const key = await keyFor(db.sql, a.id);
    const rows = Array.from({ length: SYNC }, (_, i) => person(i));

    let started = performance.now();
    for (let i = 0; i < rows.length; i += 1000) {
      const answer = (await call(batchRoute.POST as Handler, key, "/api/v1/contacts/batch", {
        contacts: rows.slice(i, i + 1000),
      })) as { data: { status: number }[] };
      if (answer.data.some((r) => r.status !== 201)) throw new Error("a batch item was refused");
    }
    const batchMs = performance.now() - started;

    const csv = [
      "email,first_name,last_name,city",
      ...rows.map((r) => `${r.email},${r.first_name},${r.last_name},${r.city}`),
    ].join("\n");
    started = performance.now();
    const result = await withService((tx) =>
      importContactsCsv(tx, {
        workspaceId: b.id,
        file: Readable.from([csv]),
        markSubscribed: false,
        uploaderIp: null,
        actorUserId: null,
      }),
    );
    const csvMs = performance.now() - started;
    if ("error" in result) throw result.error;
    const [counts] = await db.sql`
      select (select count(*)::int from contacts where workspace_id = ${a.id}) as batch,
             (select count(*)::int from contacts where workspace_id = ${b.id}) as csv`;
    if (counts.batch !== SYNC || counts.csv !== SYNC) throw new Error(`stored ${JSON.stringify(counts)}`);
    return [
      [
        `batch upsert, ${SYNC / 1000} requests of 1,000`,
        SYNC,
        (batchMs / 1000).toFixed(1),
        Math.round(SYNC / (batchMs / 1000)),
        (batchMs / csvMs).toFixed(2),
      ],
      [
        "CSV import, one transaction",
        SYNC,
        (csvMs / 1000).toFixed(1),
        Math.round(SYNC / (csvMs / 1000)),
        "1.00",
      ],
    ];
  } finally {
    await db.drop();
  }
}

async function timed(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < 3 + RUNS; i++) {
    const started = performance.now();
    await fn();
    if (i >= 3) times.push(performance.now() - started);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function list(baseUrl: string): Promise<(string | number)[][]> {
  const db = await benchDatabase(baseUrl, "crm_bench_api_list");
  try {
    const sql = db.sql;
    if (!db.reused) {
      const [ws] = await sql`insert into workspaces (name) values ('List') returning id`;
      await withoutIndexes(sql, ["contacts", "contact_tags", "contact_suppressions"], (tx) =>
        loadContacts(tx, { workspaceId: ws.id, count: LIST, tagCount: 200, tagsEach: 3, emailPrefix: "l" }),
      );
      await sql`insert into contact_counts (workspace_id, source, n)
                select workspace_id, source, count(*) from contacts group by 1, 2
                on conflict (workspace_id, source, shard) do update set n = excluded.n`;
      await sql`vacuum analyze`;
    }
    const [ws] = await sql`select id from workspaces where name = 'List'`;
    const key = await keyFor(sql, ws.id);
    const page = (cursor: string | null, query = "") =>
      call(
        contactsRoute.GET as Handler,
        key,
        `/api/v1/contacts?limit=25${query}${cursor ? `&cursor=${cursor}` : ""}`,
      ) as Promise<{
        data: unknown[];
        next_cursor: string | null;
      }>;
    const out: (string | number)[][] = [];
    for (const [label, query] of [
      ["created_at desc (default)", ""],
      ["sort_by=name", "&sort_by=name&sort_dir=asc"],
      ["source=form", "&source=form"],
    ] as const) {
      // the cursor of page 2,000: walk there once
      let cursor: string | null = null;
      for (let i = 1; i < 2000; i++) cursor = (await page(cursor, query)).next_cursor;
      const first = await timed(() => page(null, query));
      const deep = await timed(() => page(cursor, query));
      out.push([label, first.p50.toFixed(1), first.p95.toFixed(1), deep.p50.toFixed(1), deep.p95.toFixed(1)]);
    }
    const offset = await timed(() =>
      withService((tx) => getContacts(tx, { workspaceId: ws.id, page: 2000, pageSize: 25 })),
    );
    out.push(["(getContacts, page 2,000 by offset)", "", "", offset.p50.toFixed(1), offset.p95.toFixed(1)]);
    return out;
  } finally {
    await db.drop();
  }
}

async function http(baseUrl: string): Promise<void> {
  ensureBuild();
  const db = await freshDatabase(baseUrl, "crm_bench_api_http");
  const sql = connect(db.url, { max: 1 });
  const [ws] = await sql`insert into workspaces (name) values ('HTTP') returning id`;
  const key = await keyFor(sql, ws.id);
  await sql.end();
  const server = await startNextServer(PORT, {
    DATABASE_URL: db.url,
    APP_URL: `http://localhost:${PORT}`,
    API_RATE_LIMIT: "1000000000",
  });
  let n = 0;
  const load = (title: string, options: Partial<autocannon.Options>, duration = DURATION, urlPath = "") =>
    autocannon({ title, url: `http://127.0.0.1:${PORT}${urlPath}`, connections: 32, duration, ...options });
  const create = {
    path: "/api/v1/contacts",
    method: "POST" as const,
    setupRequest: (req: autocannon.Request) => ({
      ...req,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ email: `http${++n}@bench.test`, first_name: "Http" }),
    }),
  };
  try {
    await load("warm-up", {}, 5, "/api/health");
    await load("warm-up", { requests: [create] }, 5);
    await analyzeAsAutovacuumWould(db.url);
    const before = await load("health, before", {}, DURATION, "/api/health");
    const created = await load("POST /api/v1/contacts", { requests: [create] });
    const after = await load("health, after", {}, DURATION, "/api/health");
    const health = (before.requests.average + after.requests.average) / 2;
    const row = (r: autocannon.Result) => ({
      scenario: r.title,
      "req/s": Math.round(r.requests.average),
      "p50 ms": r.latency.p50,
      "p99 ms": r.latency.p99,
      ratio: (r.requests.average / health).toFixed(2),
      errors: r.errors + r.timeouts + r.non2xx,
    });
    console.log(`\nhttp: 32 connections, ${DURATION} s each, next start`);
    console.table([row(before), row(created), row(after)]);
  } finally {
    await stopNextServer(server);
    await db.drop();
  }
}

const bench: BenchModule = {
  title: "REST API v1: batch sync vs CSV import, cursor lists at scale, contact create vs health",
  async run(baseUrl) {
    process.env.API_RATE_LIMIT = "1000000000"; // the per-key limit is not what is measured
    if (PARTS.includes("sync")) {
      console.log(`\nsync: ${SYNC.toLocaleString("en-US")} new contacts, in process`);
      table(["path", "contacts", "seconds", "contacts/s", "time vs CSV"], await sync(baseUrl));
    }
    if (PARTS.includes("list")) {
      console.log(
        `\nlist: GET /api/v1/contacts at ${LIST.toLocaleString("en-US")} contacts, limit 25, ${RUNS} runs, in process`,
      );
      table(
        ["order", "page 1 p50 ms", "page 1 p95 ms", "page 2,000 p50 ms", "page 2,000 p95 ms"],
        await list(baseUrl),
      );
    }
    if (PARTS.includes("http")) await http(baseUrl);
  },
};

export default bench;
