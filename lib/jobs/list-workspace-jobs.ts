import type { Db } from "@/lib/db/doors";
import { JOBS_SCHEMA } from "./queues";

/** How the jobs page names pg-boss's states. */
export type JobState = "queued" | "running" | "failed" | "dead";

export interface WorkspaceJobRow {
  id: string;
  queue: string;
  state: JobState;
  attempts: number;
  maxAttempts: number;
  createdAt: Date;
  /** When a queued or failed job runs next. */
  runAfter: Date;
  error: string | null;
}

const STATES: Record<string, JobState> = {
  created: "queued",
  active: "running",
  retry: "failed",
  failed: "dead",
};

/**
 * The jobs page (docs/decisions.md, "Sweeps and the jobs page"): a workspace's jobs that are not done: queued,
 * running, failed (to be retried) and dead (failed after their last attempt), newest first, with
 * the last error. Jobs carry their workspace in their data (workspaceId, lib/jobs/queues.ts); the
 * caller passes the member's own workspace, never one from the client. Run as the service: the
 * job schema is closed to members.
 */
export async function listWorkspaceJobs(
  db: Db,
  workspaceId: string,
  limit = 200,
): Promise<WorkspaceJobRow[]> {
  const rows = await db.unsafe(
    `select id, name, state::text as state, retry_count, retry_limit, created_on, start_after, output
     from ${JOBS_SCHEMA}.job
     where data->>'workspaceId' = $1 and state in ('created', 'active', 'retry', 'failed')
     order by created_on desc
     limit $2`,
    [workspaceId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    queue: r.name,
    state: STATES[r.state],
    attempts: r.state === "created" ? r.retry_count : r.retry_count + 1,
    maxAttempts: r.retry_limit + 1,
    createdAt: r.created_on,
    runAfter: r.start_after,
    error: errorOf(r.output),
  }));
}

function errorOf(output: unknown): string | null {
  if (!output || typeof output !== "object") return null;
  const message = (output as { message?: unknown }).message;
  return typeof message === "string" ? message.slice(0, 500) : null;
}
