import { connect, setSql, type Sql } from "../../../lib/db/client";
import { migrate } from "../../../lib/db/migrate";

/**
 * A fresh, migrated database beside DATABASE_URL's, installed as the app's pool; drop()
 * removes it. BENCH_KEEP=1 keeps it, and reuses a kept one (`reused` true: skip loading).
 */
export async function benchDatabase(
  baseUrl: string,
  name: string,
): Promise<{ sql: Sql; reused: boolean; drop(): Promise<void> }> {
  const keep = process.env.BENCH_KEEP === "1";
  const admin = connect(baseUrl, { max: 1 });
  const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
  const reused = keep && Boolean(exists);
  if (!reused) {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.unsafe(`create database "${name}"`);
  }
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  const sql = connect(u.toString(), { max: 4 });
  await migrate(sql);
  setSql(sql);
  return {
    sql,
    reused,
    async drop() {
      setSql(undefined);
      await sql.end();
      if (!keep) await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
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
