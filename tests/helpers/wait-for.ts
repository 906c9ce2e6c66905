import type { Sql } from "@/lib/db/client";
import type { TestDatabase } from "./db";

/**
 * What `waitFor` re-checks its condition on. Unset, it polls every 10 ms (short waits on locks
 * and in-memory state). A file whose workers change the database sets a change signal
 * (`watchChanges` in tests/helpers/jobs.ts): the condition is then re-checked when the database
 * reports a change it may depend on, or after `ms` without one.
 */
let nextChange: ((ms: number) => Promise<void>) | undefined;

export function recheckOn(next: ((ms: number) => Promise<void>) | undefined): void {
  nextChange = next;
}

/** With a change signal, the longest a condition goes unchecked (a change nothing reports). */
const UNSIGNALLED_RECHECK_MS = 250;

/** Waits until `condition` holds (no fixed sleeps in tests); fails after `timeoutMs`. */
export async function waitFor(
  condition: () => Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    if (nextChange) await nextChange(UNSIGNALLED_RECHECK_MS);
    else await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A point one concurrent transaction reaches and the test waits for: the transaction calls
 * `reached()` once it holds its locks. (Watching for an idle open transaction instead was racy:
 * a transaction is idle between its own opening statements too, before it takes any lock.)
 */
export function milestone(): { reached: () => void; passed: Promise<void> } {
  let reached = () => {};
  const passed = new Promise<void>((resolve) => (reached = resolve));
  return { reached, passed };
}

/**
 * Whether a session of this test's database waits on a lock (`locktype` narrows it). pg_locks
 * is the whole server's: other files' databases wait on locks of their own.
 */
export async function waitsOnLock(sql: Sql, locktype?: string): Promise<boolean> {
  const [{ n }] = await sql`
    select count(*)::int as n from pg_locks l join pg_stat_activity a using (pid)
     where not l.granted and a.datname = current_database()
       and (${locktype ?? null}::text is null or l.locktype = ${locktype ?? null})`;
  return n > 0;
}

/**
 * Whether a transaction is open on this test's database right now. Postgres: a session of the
 * database is idle in transaction. PGlite has one session, which the app's pool of one
 * connection shares with `db.sql`: a query that cannot start within `ms` is held behind an
 * open transaction.
 */
export async function transactionOpen(db: TestDatabase, ms = 1000): Promise<boolean> {
  if (db.kind === "postgres")
    return (
      (
        await db.sql`select count(*)::int as n from pg_stat_activity
                     where state = 'idle in transaction' and datname = current_database()`
      )[0].n > 0
    );
  let timer: NodeJS.Timeout | undefined;
  const blocked = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ms)));
  const ran = db.sql`select 1`.then(() => false);
  const result = await Promise.race([ran, blocked]);
  clearTimeout(timer);
  return result;
}
