import { connect, setSql, type Sql } from "../../../lib/db/client";
import { migrate } from "../../../lib/db/migrate";
import { installJobs } from "../../../lib/jobs/flows/start-worker";

/**
 * A migrated database `name` on DATABASE_URL's server: a new one, unless `keep` finds one an
 * earlier run kept (`reused` true: skip loading). drop() removes it, unless it is kept.
 */
export async function freshDatabase(
  baseUrl: string,
  name: string,
  keep = false,
): Promise<{ url: string; reused: boolean; drop(): Promise<void> }> {
  const admin = connect(baseUrl, { max: 1 });
  const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
  const reused = keep && Boolean(exists);
  if (!reused) {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.unsafe(`create database "${name}"`);
  }
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  const migrator = connect(u.toString(), { max: 1 });
  await migrate(migrator);
  await migrator.end();
  // the job engine's tables, as a worker or `npm start` installs them: the web server under
  // test enqueues jobs (emails, webhooks) but does not install the engine itself
  await installJobs(u.toString());
  return {
    url: u.toString(),
    reused,
    async drop() {
      if (!keep) await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/**
 * freshDatabase installed as the app's pool, for the in-process benchmarks. BENCH_KEEP=1
 * keeps the database and reuses a kept one, unless `keep` says otherwise.
 */
export async function benchDatabase(
  baseUrl: string,
  name: string,
  options: { max?: number; keep?: boolean } = {},
): Promise<{ sql: Sql; reused: boolean; drop(): Promise<void> }> {
  // BENCH_DB_SUFFIX: engineers sharing one server keep their own loaded copies
  const dbName = name + (process.env.BENCH_DB_SUFFIX ?? "");
  const db = await freshDatabase(baseUrl, dbName, options.keep ?? process.env.BENCH_KEEP === "1");
  const sql = connect(db.url, { max: options.max ?? 4 });
  setSql(sql);
  return {
    sql,
    reused: db.reused,
    async drop() {
      setSql(undefined);
      await sql.end();
      await db.drop();
    },
  };
}

/** Each of `n` runs of `fn`, one after the other, in milliseconds. */
export async function timings(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const all: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    all.push(performance.now() - t);
  }
  return all;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function table(headers: string[], rows: (string | number)[][]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: (string | number)[]) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ");
  console.log(line(headers));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
}

/**
 * What autovacuum would have done on a live database by now: this machine's Postgres runs with
 * autovacuum off (`show autovacuum`), so the HTTP benchmarks analyze after their warm-up.
 * Besides current statistics, the analyze makes the server's pooled connections plan their
 * prepared statements again: a plan made while a table was nearly empty (the inbox, the
 * transactions) reads the whole table at every request once it has grown, so each run was
 * slower than the last (docs/performance.md).
 */
export async function analyzeAsAutovacuumWould(url: string): Promise<void> {
  const sql = connect(url, { max: 1 });
  try {
    await sql`analyze`;
  } finally {
    await sql.end();
  }
}
