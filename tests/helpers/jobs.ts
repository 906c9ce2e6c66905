import type { JobWithMetadata } from "pg-boss";
import type { Sql } from "@/lib/db/client";
import type { JobHandler } from "@/lib/jobs/handle";
import type { TestDatabase } from "./db";
import { recheckOn } from "./wait-for";

export interface JobRow {
  id: string;
  name: string;
  state: string;
  data: Record<string, unknown>;
  retry_count: number;
  retry_limit: number;
  output: { message?: string } | null;
}

/** The jobs of a workspace in the job engine's table, oldest first. */
export function jobsOf(sql: Sql, workspaceId: string): Promise<JobRow[]> {
  return sql<JobRow[]>`
    select id, name, state::text as state, data, retry_count, retry_limit, output
    from pgboss.job where data->>'workspaceId' = ${workspaceId} order by created_on, id`;
}

/** One job by its id, whatever its data. */
export async function jobById(sql: Sql, id: string): Promise<JobRow | undefined> {
  const [job] = await sql<JobRow[]>`
    select id, name, state::text as state, data, retry_count, retry_limit, output
    from pgboss.job where id = ${id}`;
  return job;
}

/**
 * Runs a job's handler once in the test process, as a worker would on its first attempt: the
 * payload checked against its queue's contract, then the handler.
 */
export function runJob(handler: JobHandler, job: JobRow): Promise<unknown> {
  return handler({
    ...job,
    retryCount: job.retry_count,
    retryLimit: job.retry_limit,
    signal: new AbortController().signal,
  } as unknown as JobWithMetadata<unknown>);
}

const CHANGES = "test_changes";

/** What the job tests' conditions read: the job engine's jobs and schedules, and what jobs write. */
const WATCHED = {
  // partitioned (one table per queue): a row trigger reaches every partition, also later ones
  row: ["pgboss.job"],
  statement: [
    "pgboss.schedule",
    "public.broadcasts",
    "public.email_sends",
    "public.event_registrations",
    "public.webhook_inbox",
    "public.contact_imports",
  ],
};

/**
 * Completion signals instead of polling, for the files whose workers do the work: `waitFor`
 * re-checks its condition when the database reports a committed change to what jobs write
 * (tests/helpers/wait-for.ts). On Postgres the test's own database gets triggers that NOTIFY on
 * every change to those tables (test fixtures in that database, not a migration), and the test
 * LISTENs. PGlite serves a NOTIFY only to the session that sent it, so there the condition is
 * re-checked on a timer, ten times a second rather than a hundred: the polls share the one
 * database (and the process) with the in-process worker they wait on. Call in a beforeAll.
 */
export async function watchChanges(db: TestDatabase): Promise<() => Promise<void>> {
  if (db.kind !== "postgres") {
    recheckOn((ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 100))));
    return async () => recheckOn(undefined);
  }
  await db.sql.unsafe(`
    create or replace function public.test_changed() returns trigger language plpgsql as $$
      begin perform pg_notify('${CHANGES}', tg_table_name); return null; end $$;
    ${WATCHED.row
      .map(
        (t) =>
          `create trigger test_changed after insert or update or delete on ${t} for each row execute function public.test_changed();`,
      )
      .join("\n")}
    ${WATCHED.statement
      .map(
        (t) =>
          `create trigger test_changed after insert or update or delete on ${t} for each statement execute function public.test_changed();`,
      )
      .join("\n")}`);
  const waiting = new Set<() => void>();
  const listener = await db.sql.listen(CHANGES, () => {
    for (const wake of waiting) wake();
    waiting.clear();
  });
  recheckOn(
    (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          waiting.delete(done);
          resolve();
        }
        waiting.add(done);
      }),
  );
  return async () => {
    recheckOn(undefined);
    await listener.unlisten();
  };
}
