import type { JobWithMetadata } from "pg-boss";
import type { Sql } from "@/lib/db/client";

export interface JobRow {
  id: string;
  name: string;
  state: string;
  data: Record<string, string>;
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

/** Runs a job's handler once in the test process, as a worker would on its first attempt. */
export function runJob(
  handler: (job: JobWithMetadata<Record<string, string>>) => Promise<unknown>,
  job: JobRow,
): Promise<unknown> {
  return handler({
    ...job,
    retryCount: job.retry_count,
    retryLimit: job.retry_limit,
    signal: new AbortController().signal,
  } as unknown as JobWithMetadata<Record<string, string>>);
}
