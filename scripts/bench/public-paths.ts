/**
 * npm run bench -- public-paths: the three paths the public and other systems hit hardest, against
 * the health route of the same `next start` in the same run (docs/performance.md, "The public paths"):
 * - `POST /api/forms/{id}` with the form's key, a new contact each time (spec 4.2, path B);
 * - `GET /api/v1/public/events`, 500 events, a key with `events:read` (spec 4.14);
 * - `POST /api/v1/contacts`, a new contact each time, a key with `contacts:write` (docs/api.md).
 * 32 connections, BENCH_ROUNDS alternating rounds of BENCH_DURATION seconds (so every route sees the
 * same machine), the median round of each.
 *
 * Then, per path, where one request's time goes: the server's and Postgres's CPU per request under load;
 * the request's own SQL captured from the server (statements, round trips) and replayed alone on one
 * connection, as sent, with the time spent inside trigger functions (`track_functions`) beside it; and
 * the framework's part, the same request refused before any query.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -- public-paths
 *
 * BENCH_PUBLIC_PATHS=form,events,create measures only those paths (beside health).
 *
 * It creates and drops its own database (crm_bench_public) beside DATABASE_URL's, reuses `.next` when it
 * is newer than the sources (else runs `next build`), and listens on 3281.
 */
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { hashApiKey, newApiKey } from "../../lib/api-keys/hash-api-key";
import { connect } from "../../lib/db/client";
import { generateFormKey, hashFormKey } from "../../lib/forms/api-key";
import { analyzeAsAutovacuumWould, freshDatabase } from "./lib/database";
import {
  databaseCpuMs,
  ensureBuild,
  processTreeCpuMs,
  startNextServer,
  stopNextServer,
} from "./lib/next-server";
import {
  captureRequestSql,
  ceilingRatio,
  isTransactionControl,
  replaySqlFloor,
  type Captured,
  type SqlFloor,
} from "./lib/sql-floor";
import { benchEvents } from "./lib/events-data";
import { verdict } from "./lib/verdict";

const PORT = Number(process.env.BENCH_PUBLIC_PORT ?? 3281);
const CONNECTIONS = 32;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const EVENTS = 500;
const EXISTING = 20_000;
const BENCH_DB = "crm_bench_public";
const ONLY = process.env.BENCH_PUBLIC_PATHS?.split(",");
const chosen = (path: string) => !ONLY || ONLY.includes(path);

async function seed(url: string) {
  const sql = connect(url, { max: 1 });
  const [ws] = await sql`insert into public.workspaces (name) values ('Bench') returning id`;
  const formKey = generateFormKey();
  const [form] = await sql`
    insert into public.forms (workspace_id, name, api_key) values (${ws.id}, 'Keyed', ${hashFormKey(formKey)})
    returning id`;
  await sql`
    insert into public.contacts (workspace_id, email, first_name)
    select ${ws.id}, 'existing' || i || '@bench.test', 'Existing' from generate_series(1, ${EXISTING}) as i`;
  const events = benchEvents(ws.id, EVENTS);
  await sql`insert into public.events ${sql(events)}`;
  const eventsKey = newApiKey();
  const contactsKey = newApiKey();
  await sql`
    insert into public.api_keys (workspace_id, name, key_hash, scopes) values
      (${ws.id}, 'Events', ${hashApiKey(eventsKey)}, '{events:read}'),
      (${ws.id}, 'Contacts', ${hashApiKey(contactsKey)}, '{contacts:write}')`;
  await sql.end();
  return { formId: form.id as string, formKey, eventsKey, contactsKey };
}

let counter = 0;
const nextIp = () => {
  counter += 1;
  return `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
};

/** One request of a path, as autocannon sends it and as the SQL capture sends it once. */
interface PathRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: () => object;
}

const asAutocannon = (r: PathRequest): autocannon.Request => ({
  method: r.method,
  path: r.path,
  setupRequest: (req: autocannon.Request) => ({
    ...req,
    headers: {
      ...r.headers,
      "x-forwarded-for": nextIp(),
      ...(r.body ? { "content-type": "application/json" } : {}),
    },
    ...(r.body ? { body: JSON.stringify(r.body()) } : {}),
  }),
});

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cpuMs: number;
  dbCpuMs: number;
}

async function load(
  serverPid: number,
  request: PathRequest,
  duration = DURATION,
  refused = false,
): Promise<Sample> {
  const [cpuBefore, dbBefore] = [processTreeCpuMs(serverPid), databaseCpuMs(BENCH_DB)];
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}`,
    connections: CONNECTIONS,
    duration,
    requests: [asAutocannon(request)],
  });
  const requests = Math.max(1, result.requests.total);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + (refused ? 0 : result.non2xx),
    cpuMs: (processTreeCpuMs(serverPid) - cpuBefore) / requests,
    dbCpuMs: (databaseCpuMs(BENCH_DB) - dbBefore) / requests,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summarise = (samples: Sample[]): Sample => ({
  rps: median(samples.map((s) => s.rps)),
  p50: median(samples.map((s) => s.p50)),
  p99: median(samples.map((s) => s.p99)),
  errors: samples.reduce((n, s) => n + s.errors, 0),
  cpuMs: median(samples.map((s) => s.cpuMs)),
  dbCpuMs: median(samples.map((s) => s.dbCpuMs)),
});

/** A round's own copy of the captured statements: each address the bench made gets the round's prefix. */
const newEmails = (s: Captured, round: number): Captured => ({
  ...s,
  p: s.p.map((v) => (typeof v === "string" && v.endsWith("@bench.test") ? `r${round}-${v}` : v)),
});

/** A request answered without a statement (from a cache) */
const NO_SQL: SqlFloor = {
  statements: 0,
  trips: 0,
  asSentDbMs: 0,
  oneTripDbMs: 0,
  asSentMs: 0,
  oneTripMs: 0,
  triggerMs: 0,
  shares: [],
};

export default async function run(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base)
    throw new Error("Set DATABASE_URL to a Postgres server (the benchmark creates its own database there).");
  ensureBuild();
  const db = await freshDatabase(base, BENCH_DB);
  const { formId, formKey, eventsKey, contactsKey } = await seed(db.url);
  // the per-key limit is checked on every request, never reached: it is not what is measured
  const env = {
    DATABASE_URL: db.url,
    APP_URL: `http://localhost:${PORT}`,
    RESEND_API_KEY: undefined,
    API_RATE_LIMIT: "1000000000",
  };
  let fresh = 0;
  const paths: Record<"form" | "events" | "create", PathRequest> = {
    form: {
      method: "POST",
      path: `/api/forms/${formId}`,
      headers: { "x-api-key": formKey },
      body: () => ({ email: `lead${++fresh}@bench.test`, first_name: "Lead", is_subscribed: true }),
    },
    events: {
      method: "GET",
      path: "/api/v1/public/events",
      headers: { authorization: `Bearer ${eventsKey}` },
    },
    create: {
      method: "POST",
      path: "/api/v1/contacts",
      headers: { authorization: `Bearer ${contactsKey}` },
      body: () => ({ email: `api${++fresh}@bench.test`, first_name: "Api" }),
    },
  };
  // the framework's part of each path: the same request, refused before any query
  const refusedPaths: Record<keyof typeof paths, PathRequest> = {
    form: { ...paths.form, path: "/api/forms/not-a-form" },
    events: { ...paths.events, headers: { authorization: "Bearer not-a-key" } },
    create: { ...paths.create, headers: { authorization: "Bearer not-a-key" } },
  };
  const health: PathRequest = { method: "GET", path: "/api/health", headers: {} };
  const server = await startNextServer(PORT, env);
  const rows: Record<string, Sample[]> = {};
  const add = (label: string, sample: Sample) => (rows[label] ??= []).push(sample);
  try {
    const pid = server.pid ?? 0;
    const warmUps = Object.entries({ ...paths, ...refusedPaths }).filter(([name]) => chosen(name));
    for (const request of [health, ...warmUps.map(([, request]) => request)])
      await load(pid, request, 3, true);
    await analyzeAsAutovacuumWould(db.url);
    // the events list's work without its body: the same GET naming the list's ETag (304)
    const etag = (
      await fetch(`http://127.0.0.1:${PORT}${paths.events.path}`, { headers: paths.events.headers })
    ).headers.get("etag");
    const unchanged = { ...paths.events, headers: { ...paths.events.headers, "if-none-match": etag ?? "" } };
    for (let round = 0; round < ROUNDS; round++) {
      add("health", await load(pid, health));
      for (const [name, request] of Object.entries(paths))
        if (chosen(name)) add(name, await load(pid, request));
      for (const [name, request] of Object.entries(refusedPaths))
        if (chosen(name)) add(`${name}, refused`, await load(pid, request, DURATION / 2, true));
      if (chosen("events")) add("events, 304", await load(pid, unchanged, DURATION / 2, true));
    }
  } finally {
    await stopNextServer(server);
  }
  try {
    const summary = Object.fromEntries(
      Object.entries(rows).map(([label, samples]) => [label, summarise(samples)]),
    );
    const healthRate = summary.health.rps;
    const labels: Record<string, string> = {
      health: "GET /api/health (no database)",
      form: "POST /api/forms/{id}, key, new contact",
      events: `GET /api/v1/public/events (${EVENTS} events)`,
      create: "POST /api/v1/contacts, new contact",
      "form, refused": "  …the same POST, malformed form id (404)",
      "events, refused": "  …the same GET, unknown key (401)",
      "create, refused": "  …the same POST, unknown key (401)",
      "events, 304": "  …the same GET with the list's ETag (304, no body)",
    };
    console.log(
      `\npublic paths: ${CONNECTIONS} connections, median of ${ROUNDS} alternating ${DURATION}-s rounds, next start on Postgres\n`,
    );
    console.table(
      Object.entries(summary).map(([label, s]) => ({
        path: labels[label] ?? label,
        "req/s": Math.round(s.rps),
        "p50 ms": s.p50,
        "p99 ms": s.p99,
        ratio: (s.rps / healthRate).toFixed(2),
        "server cpu ms/req": s.cpuMs.toFixed(2),
        "db cpu ms/req": s.dbCpuMs.toFixed(2),
        errors: s.errors,
      })),
    );

    // where one request's time goes: its SQL, captured once from a server on a copy of the database
    const breakdown: Record<string, SqlFloor & { transactions: number }> = {};
    for (const [name, request] of Object.entries(paths)) {
      if (!chosen(name)) continue;
      const statements = await captureRequestSql({
        baseUrl: base,
        database: BENCH_DB,
        port: PORT,
        env,
        transactionControl: true,
        send: async (origin) => {
          const response = await fetch(`${origin}${request.path}`, {
            method: request.method,
            headers: {
              ...request.headers,
              "x-forwarded-for": nextIp(),
              ...(request.body ? { "content-type": "application/json" } : {}),
            },
            body: request.body ? JSON.stringify(request.body()) : undefined,
          });
          if (!response.ok) throw new Error(`the captured ${request.path} answered ${response.status}`);
        },
      });
      const sqlOnly = statements.filter((s) => !isTransactionControl(s));
      breakdown[name] = {
        ...(sqlOnly.length > 0 ? await replaySqlFloor(db.url, BENCH_DB, sqlOnly, 200, newEmails) : NO_SQL),
        transactions: statements.filter((s) => /^\s*(begin|start transaction)\b/i.test(s.q)).length,
      };
    }
    console.log(
      "\nwhere one request's time goes (ms per request; the SQL replayed alone on one connection, as sent)\n",
    );
    console.table(
      Object.entries(breakdown).map(([name, b]) => {
        const s = summary[name];
        const framework = summary[`${name}, refused`];
        return {
          path: labels[name],
          "server cpu": s.cpuMs.toFixed(2),
          "…framework (refused)": framework.cpuMs.toFixed(2),
          "db cpu": s.dbCpuMs.toFixed(2),
          statements: b.statements,
          transactions: b.transactions,
          "sql wall, as sent": b.asSentMs.toFixed(2),
          "sql db cpu": b.asSentDbMs.toFixed(2),
          "…in triggers": b.triggerMs.toFixed(2),
          "sql db cpu, committed": b.committedDbMs?.toFixed(2) ?? "",
          "sql wall, pipelined": `${b.oneTripMs.toFixed(2)} (${b.trips} trips)`,
          // the most the path could reach if the app did only the refused request's work and the
          // database only this SQL, committed (sql-floor.ts, ceilingRatio)
          ceiling: ceilingRatio(healthRate, b.committedDbMs ?? b.asSentDbMs, framework.rps).toFixed(2),
        };
      }),
    );
    for (const [name, b] of Object.entries(breakdown)) {
      console.log(`\n${labels[name]}: the statements' shares of the SQL's wall time, largest first`);
      for (const { share, statement } of b.shares.slice(0, 6))
        console.log(`  ${(100 * share).toFixed(0).padStart(3)}%  ${statement.slice(0, 110)}`);
    }
    const goals = [
      ["form", "form submission, new contact / health", 0.42],
      ["events", "public events API / health", 0.8],
      ["create", "REST contact create / health", 0.35],
    ] as const;
    for (const [name, label, atLeast] of goals)
      if (chosen(name)) verdict(label, summary[name].rps / healthRate, { atLeast });
  } finally {
    await db.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
