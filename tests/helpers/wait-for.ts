import type { Sql } from "@/lib/db/client";

/** Polls `condition` until it holds (no fixed sleeps in tests); fails after `timeoutMs`. */
export async function waitFor(
  condition: () => Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits until some transaction on this test's database is open and idle: it holds its locks. */
export function waitForIdleTransaction(sql: Sql, what: string): Promise<void> {
  return waitFor(
    async () =>
      (
        await sql`select count(*)::int as n from pg_stat_activity
                  where state = 'idle in transaction' and datname = current_database()`
      )[0].n > 0,
    what,
  );
}
