/**
 * Many small clients, direct or through a transaction-mode pooler (docs/decisions.md "Transaction
 * pooler"): each client is one serverless instance with a pool of one connection, running small
 * transactions (BEGIN, one UPDATE of a random row, COMMIT) for BENCH_DURATION seconds.
 * - direct: one server connection per client, so only as many clients as the server's
 *   max_connections leaves free (other sessions and a margin kept): 200 would be refused with
 *   "too many clients" (and would starve everyone else on a shared server), so it is not tried;
 * - through PgBouncer (transaction mode, 20 server connections): 200 clients, and as many as the
 *   direct run had, for the same-load comparison.
 * Prints transactions per second, latency percentiles and errors; asserts nothing.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/crm npm run bench -- pooler
 */
import postgres from "postgres";
import { startPgBouncer } from "../../tests/helpers/pgbouncer";
import { percentile, table } from "./lib/database";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CLIENTS = Number(process.env.BENCH_POOLER_CLIENTS ?? 200);
const SERVER_POOL = 20;
const BENCH_DB = "crm_bench_pooler";
const ROWS = 1_000;

interface Outcome {
  label: string;
  clients: number;
  serverConnections: string;
  tps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(
  label: string,
  url: string,
  clients: number,
  prepare: boolean,
  serverConnections: string,
) {
  const pools = Array.from({ length: clients }, () =>
    postgres(url, { max: 1, prepare, onnotice: () => {}, connect_timeout: 10 }),
  );
  const latencies: number[] = [];
  let errors = 0;
  const until = Date.now() + DURATION * 1000;
  const started = Date.now();
  await Promise.all(
    pools.map(async (sql) => {
      while (Date.now() < until) {
        const t = performance.now();
        try {
          await sql.begin(
            (tx) =>
              tx`update bench_counters set n = n + 1 where id = ${1 + Math.floor(Math.random() * ROWS)}`,
          );
          latencies.push(performance.now() - t);
        } catch {
          errors += 1;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  await Promise.all(pools.map((sql) => sql.end({ timeout: 5 })));
  return {
    label,
    clients,
    serverConnections,
    tps: Math.round(latencies.length / seconds),
    p50: latencies.length ? Number(percentile(latencies, 50).toFixed(1)) : NaN,
    p99: latencies.length ? Number(percentile(latencies, 99).toFixed(1)) : NaN,
    errors,
  } satisfies Outcome;
}

export default async function run(): Promise<void> {
  const base = process.env.DATABASE_URL!;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${BENCH_DB}" with (force)`);
  await admin.unsafe(`create database "${BENCH_DB}"`);
  const u = new URL(base);
  u.pathname = `/${BENCH_DB}`;
  const url = u.toString();
  const setup = postgres(url, { max: 1, onnotice: () => {} });
  await setup`create table bench_counters (id int primary key, n bigint not null default 0)`;
  await setup`insert into bench_counters (id) select g from generate_series(1, ${ROWS}) g`;
  await setup.end();
  const [{ max, used, reserved }] = await admin`
    select current_setting('max_connections')::int as max,
           (select count(*)::int from pg_stat_activity where backend_type = 'client backend') as used,
           current_setting('superuser_reserved_connections')::int as reserved`;
  // what is free now, less a margin of 20 for the other sessions sharing this server
  const direct = Math.max(1, Math.min(CLIENTS, max - used - reserved - 20));
  console.log(
    `max_connections ${max}, in use ${used}, reserved ${reserved}: direct runs ${direct} clients` +
      (direct < CLIENTS ? ` (${CLIENTS} would exceed what is free; not tried)` : ""),
  );
  const bouncer = await startPgBouncer(url, { poolSize: SERVER_POOL, maxClients: CLIENTS + 50 });
  const outcomes: Outcome[] = [];
  try {
    outcomes.push(await load("direct, prepared", url, direct, true, String(direct)));
    outcomes.push(await load("direct, prepare: false", url, direct, false, String(direct)));
    outcomes.push(await load("pgbouncer, prepare: false", bouncer.url, direct, false, `≤${SERVER_POOL}`));
    outcomes.push(await load("pgbouncer, prepare: false", bouncer.url, CLIENTS, false, `≤${SERVER_POOL}`));
  } finally {
    await bouncer.stop();
    await admin.unsafe(`drop database if exists "${BENCH_DB}" with (force)`);
    await admin.end();
  }
  table(
    ["mode", "clients", "server conns", "tx/s", "p50 ms", "p99 ms", "errors"],
    outcomes.map((o) => [o.label, o.clients, o.serverConnections, o.tps, o.p50, o.p99, o.errors]),
  );
}
