import type { JobWithMetadata } from "pg-boss";
import type { Sql } from "@/lib/db/client";
import type { JobHandler } from "@/lib/jobs/handle";

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
