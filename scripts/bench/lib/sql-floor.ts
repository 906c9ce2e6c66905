/**
 * The database floor under a write endpoint (docs/performance.md): the statements one request sends,
 * captured from `next start` (BENCH_SQL_LOG, lib/db/client.ts) and replayed on one direct
 * connection without the app, to measure what the database alone spends on them.
 *
 * The capture runs on a copy of the benchmark database (CREATE DATABASE … TEMPLATE), so the
 * replays on the benchmark database meet the state the request met: a new contact is new.
 * Each replay runs in a transaction that is rolled back, so it can repeat with the same values;
 * that leaves out the commit's WAL flush, and the floor is, if anything, too low.
 *
 * Two ways, side by side:
 * - "as sent": one statement, one round trip, awaited in turn, as the app sends them;
 * - "pipelined": the statements written at once, one round trip, plus one wherever a later
 *   statement names an id the database generated (findLinks). This is what the lever of issue
 *   17 (the pipeline as one SQL function called once) could save the database: the statements
 *   still run, the per-statement round trips do not.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { connect } from "../../../lib/db/client";
import { UUID_SOURCE } from "../../../lib/ids/uuid";
import { databaseCpuMs, startNextServer, stopNextServer } from "./next-server";

export interface Captured {
  c: number;
  q: string;
  p: unknown[];
}

/**
 * Deferred constraint triggers (contacts_sync_topics) fire at COMMIT, which a replay never reaches:
 * made immediate, they run inside the replay and count in its time.
 */
const IMMEDIATE = "set constraints all immediate";

const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|start transaction)\b/i;

/**
 * The statements of the last of `requests + 1` calls of `send` against a server on a copy of
 * `database` (the earlier calls warm its caches and pools, as in the load).
 */
export async function captureRequestSql(input: {
  baseUrl: string;
  database: string;
  port: number;
  env: Record<string, string | undefined>;
  send: (origin: string, attempt: number) => Promise<void>;
  warmUps?: number;
  /** keep begin/commit/rollback (to count transactions); left out by default, as a replay adds its own */
  transactionControl?: boolean;
}): Promise<Captured[]> {
  const copy = `${input.database}_capture`;
  const admin = connect(input.baseUrl, { max: 1 });
  await admin.unsafe(`drop database if exists "${copy}" with (force)`);
  await admin.unsafe(`create database "${copy}" template "${input.database}"`);
  const url = new URL(input.baseUrl);
  url.pathname = `/${copy}`;
  const log = path.join(tmpdir(), `crm-bench-floor-${process.pid}.sql.jsonl`);
  rmSync(log, { force: true });
  const server = await startNextServer(input.port, {
    ...input.env,
    DATABASE_URL: url.toString(),
    BENCH_SQL_LOG: log,
  });
  try {
    const origin = `http://127.0.0.1:${input.port}`;
    const warmUps = input.warmUps ?? 3;
    for (let i = 0; i < warmUps; i++) await input.send(origin, i);
    rmSync(log, { force: true });
    await input.send(origin, warmUps);
    await new Promise((r) => setTimeout(r, 300)); // statements after the response (none expected)
  } finally {
    await stopNextServer(server);
    await admin.unsafe(`drop database if exists "${copy}" with (force)`);
    await admin.end();
  }
  // no file: the request sent no statement (it was answered from a cache)
  const statements = (existsSync(log) ? readFileSync(log, "utf8") : "")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Captured);
  if (process.env.BENCH_FLOOR_DUMP)
    writeFileSync(process.env.BENCH_FLOOR_DUMP, JSON.stringify(statements, null, 1));
  return input.transactionControl ? statements : statements.filter((s) => !TRANSACTION_CONTROL.test(s.q));
}

export const isTransactionControl = (s: Captured) => TRANSACTION_CONTROL.test(s.q);

export interface SqlFloor {
  statements: number;
  /** round trips of the pipelined replay: one, plus one per generated id a later statement needs */
  trips: number;
  /** Postgres CPU per replay, ms */
  asSentDbMs: number;
  oneTripDbMs: number;
  /** wall time per replay, ms */
  asSentMs: number;
  oneTripMs: number;
  /** Postgres's time inside trigger functions per replay, as sent (`track_functions`), ms */
  triggerMs: number;
  /** as sent and committed (replaySqlFloor's `unique`): Postgres CPU and wall time per replay, ms */
  committedDbMs?: number;
  committedMs?: number;
  /** each statement's share of the as-sent wall time, largest first */
  shares: { share: number; statement: string }[];
}

const UUID = new RegExp(UUID_SOURCE, "g");
const uuidsOf = (s: Captured) => new Set(JSON.stringify(s.p).match(UUID) ?? []);

/**
 * Where a replay must read a generated id: a statement returns a row whose `id` the database
 * made (a new contact, a stored webhook), and a later statement names that id. In the capture,
 * such an id is a value a later statement names that no earlier statement did (of several, the one
 * named most often from there on); the replay gets a new one each time and puts it in place of the
 * captured value.
 */
interface Link {
  /** the statement that returns the id */
  from: number;
  /** the captured value later statements name */
  captured: string;
}

const substitute = (s: Captured, ids: Map<string, string>): Captured => {
  if (ids.size === 0) return s;
  let text = JSON.stringify(s.p);
  for (const [from, to] of ids) text = text.replaceAll(from, to);
  return { ...s, p: JSON.parse(text) as unknown[] };
};

async function findLinks(run: (s: Captured) => Promise<Record<string, unknown>[]>, statements: Captured[]) {
  const links: Link[] = [];
  const ids = new Map<string, string>();
  const seen = new Set<string>();
  /** ids the app made for new rows (a submission's): named first by an insert, neither linked nor read back */
  const appMade = new Set<string>();
  let pending: { from: number; id: string } | null = null;
  for (const [i, s] of statements.entries()) {
    const named = uuidsOf(s);
    // of the values no earlier statement named, the one most later statements name too: an id the
    // app made for this row (a submission's) is named once, the generated one it links to again
    const mentions = (u: string) => statements.slice(i).filter((later) => uuidsOf(later).has(u)).length;
    const fresh = [...named].filter((u) => !seen.has(u)).sort((a, b) => mentions(b) - mentions(a))[0];
    if (pending && fresh) {
      links.push({ from: pending.from, captured: fresh });
      ids.set(fresh, pending.id);
      pending = null;
    }
    for (const u of named) {
      if (!seen.has(u) && !ids.has(u) && /^\s*insert\b/i.test(s.q)) appMade.add(u);
      seen.add(u);
    }
    const rows = await run(substitute(s, ids));
    const id = rows[0]?.id;
    // values the replay reads back as they were captured (a key looked up, its workspace) are stable:
    // later statements may name them as they are
    const later = statements.slice(i + 1);
    for (const value of Object.values(rows[0] ?? {}))
      if (typeof value === "string" && later.some((l) => uuidsOf(l).has(value))) seen.add(value);
    if (typeof id === "string" && !seen.has(id)) pending = { from: i, id };
  }
  return { links, appMade };
}

/** Replays `statements` `rounds` times each way on `database` (the benchmark's, unchanged by the capture). */
export async function replaySqlFloor(
  databaseUrl: string,
  database: string,
  statements: Captured[],
  rounds = 300,
  /**
   * Makes a round's statements unique (a new email each time): then a pass replays them as sent and
   * commits each round, which the rolled-back replays leave out (the commit's WAL flush)
   */
  unique?: (s: Captured, round: number) => Captured,
): Promise<SqlFloor> {
  const sql = connect(databaseUrl, { max: 1 });
  const conn = await sql.reserve();
  const run = (s: Captured) =>
    conn.unsafe(s.q, s.p as never[], { prepare: true }) as unknown as Promise<Record<string, unknown>[]>;
  await conn.unsafe("begin");
  await conn.unsafe(IMMEDIATE);
  const { links, appMade } = await findLinks(run, statements);
  await conn.unsafe("rollback");
  const read = (i: number, rows: Record<string, unknown>[], ids: Map<string, string>) => {
    for (const link of links) if (link.from === i) ids.set(link.captured, rows[0].id as string);
  };
  const perStatement = new Array<number>(statements.length).fill(0);
  const asSent = async (round?: number) => {
    // a committed round cannot reuse the ids the app made: each gets a new one
    const ids = new Map<string, string>(
      round === undefined ? [] : [...appMade].map((u) => [u, randomUUID()]),
    );
    await conn.unsafe("begin");
    if (round === undefined) await conn.unsafe(IMMEDIATE);
    for (const [i, s] of statements.entries()) {
      const t0 = performance.now();
      read(i, await run(substitute(round === undefined ? s : unique!(s, round), ids)), ids);
      perStatement[i] += performance.now() - t0;
    }
    await conn.unsafe(round === undefined ? "rollback" : "commit");
  };
  // the time Postgres spends inside trigger functions: this connection's own function statistics
  const inTriggers = async () => {
    await conn.unsafe("select pg_stat_force_next_flush()");
    await conn.unsafe("select 1"); // the flush happens at the end of a statement
    const [row] = await conn.unsafe(`
      select coalesce(sum(self_time), 0)::float8 as ms from pg_stat_user_functions
      where funcid in (select tgfoid from pg_trigger where not tgisinternal)`);
    return Number(row.ms);
  };
  // begin and the statements written together (postgres.js pipelines them), up to each
  // statement whose generated id a later one needs; then the rest, and rollback
  const cuts = [...new Set(links.map((l) => l.from))].sort((a, b) => a - b);
  const oneTrip = async () => {
    const ids = new Map<string, string>();
    let from = 0;
    for (const cut of [...cuts, statements.length - 1]) {
      const segment = statements.slice(from, cut + 1);
      const results = await Promise.all([
        ...(from === 0 ? [conn.unsafe("begin"), conn.unsafe(IMMEDIATE)] : []),
        ...segment.map((s) => run(substitute(s, ids))),
        ...(cut === statements.length - 1 ? [conn.unsafe("rollback")] : []),
      ]);
      read(cut, results[(from === 0 ? 2 : 0) + segment.length - 1] as Record<string, unknown>[], ids);
      from = cut + 1;
    }
  };
  const measure = async (once: () => Promise<void>) => {
    for (let i = 0; i < 20; i++) await once(); // prepared statements, caches
    const [db0, t0] = [databaseCpuMs(database), performance.now()];
    for (let i = 0; i < rounds; i++) await once();
    return { dbMs: (databaseCpuMs(database) - db0) / rounds, ms: (performance.now() - t0) / rounds };
  };
  try {
    // alternate, so neither way gets the quieter half of the run
    const a1 = await measure(asSent);
    const b1 = await measure(oneTrip);
    const a2 = await measure(asSent);
    const b2 = await measure(oneTrip);
    // a pass of its own: tracking functions costs time
    await conn.unsafe("set track_functions = 'pl'");
    const before = await inTriggers();
    for (let i = 0; i < rounds; i++) await asSent();
    const triggerMs = ((await inTriggers()) - before) / rounds;
    await conn.unsafe("reset track_functions");
    let committed: { dbMs: number; ms: number } | undefined;
    if (unique) {
      let round = 0;
      committed = await measure(() => asSent(++round));
    }
    const total = perStatement.reduce((a, b) => a + b, 0) || 1;
    const shares = perStatement
      .map((ms, i) => ({ share: ms / total, statement: statements[i].q.replace(/\s+/g, " ").trim() }))
      .sort((a, b) => b.share - a.share);
    return {
      triggerMs,
      shares,
      committedDbMs: committed?.dbMs,
      committedMs: committed?.ms,
      statements: statements.length,
      trips: cuts.length + 1,
      asSentDbMs: (a1.dbMs + a2.dbMs) / 2,
      oneTripDbMs: (b1.dbMs + b2.dbMs) / 2,
      asSentMs: (a1.ms + a2.ms) / 2,
      oneTripMs: (b1.ms + b2.ms) / 2,
    };
  } finally {
    conn.release();
    await sql.end();
  }
}

/**
 * The largest ratio to the health route the endpoint could reach if the app did no more than
 * `requestRate`'s request (the health route itself, or the same POST refused before any query)
 * and the database only `dbMs` per request: the machine's CPU per request at each rate (`cores`
 * × 1000 / req/s, the cores being saturated), plus `dbMs`, against the health route's.
 */
export function ceilingRatio(healthRate: number, dbMs: number, requestRate = healthRate, cores = 2): number {
  const healthMs = (cores * 1000) / healthRate;
  const requestMs = (cores * 1000) / requestRate;
  return healthMs / (requestMs + dbMs);
}

/** `post`: the same POST with its body, refused before any query (the framework's part). */
export function printSqlFloor(
  label: string,
  floor: SqlFloor,
  healthRate: number,
  goal: number,
  post: { label: string; rate: number },
): void {
  console.log(
    `\n${label}: its own SQL (${floor.statements} statements, captured from one request) replayed without the app,` +
      " one connection, each replay rolled back",
  );
  const row = (replay: string, dbMs: number, ms: number) => ({
    replay,
    "db cpu ms": dbMs.toFixed(2),
    "wall ms": ms.toFixed(2),
    "ceiling, app as health": ceilingRatio(healthRate, dbMs).toFixed(2),
    "ceiling, app as the refused POST": ceilingRatio(healthRate, dbMs, post.rate).toFixed(2),
  });
  console.table([
    row("as sent (a round trip per statement)", floor.asSentDbMs, floor.asSentMs),
    row(
      `pipelined (${floor.trips} round trip${floor.trips > 1 ? "s" : ""})`,
      floor.oneTripDbMs,
      floor.oneTripMs,
    ),
  ]);
  const dbMs = Math.min(floor.asSentDbMs, floor.oneTripDbMs);
  const best = ceilingRatio(healthRate, dbMs, post.rate);
  console.log(
    `ceiling: if the app did no more than ${post.label} (${Math.round(post.rate)} req/s against health's` +
      ` ${Math.round(healthRate)}) and the database only this SQL, pipelined, two saturated cores would reach at most` +
      ` ${best.toFixed(2)}x the health route (goal ${goal}x; as health's app work: ${ceilingRatio(healthRate, dbMs).toFixed(2)}x)`,
  );
}
