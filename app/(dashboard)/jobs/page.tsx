import type { Metadata } from "next";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { formatDateTime } from "@/lib/time/format";
import { withService } from "@/lib/db/doors";
import { listWorkspaceJobs, type JobState } from "@/lib/jobs/list-workspace-jobs";
import { ACTIONS_COLUMN, DataTable } from "@/components/ui/data-table";
import { asFormAction } from "@/lib/http/form-state";
import { retryJobAction } from "./actions";

export const metadata: Metadata = { title: "Jobs" };

const QUEUE_LABELS: Record<string, string> = {
  "ticketing-delivery": "Ticketing delivery",
  "ticketing-sync": "Eventbrite import",
  "payments-backfill": "Payments backfill",
  broadcast: "Broadcast",
  "broadcast-ab-decision": "A/B test decision",
  "contact-import": "Contact import",
};

const STATE_LABELS: Record<JobState, string> = {
  queued: "Queued",
  running: "Running",
  failed: "Failed, will retry",
  dead: "Dead",
};

/**
 * docs/decisions.md, "Sweeps and the jobs page": the workspace's background jobs that are not done (queued,
 * running, failed, dead), with the last error and a retry button for dead ones. Owners and admins only.
 */
export default async function JobsPage() {
  const ctx = await requireMember();
  if (!ADMIN_ROLES.includes(ctx.workspace.role))
    return (
      <>
        <h1>Jobs</h1>
        <div className="card empty">Only owners and admins can see the workspace&apos;s jobs.</div>
      </>
    );
  const jobs = await withService((db) => listWorkspaceJobs(db, ctx.workspace.workspaceId));
  return (
    <>
      <h1>Jobs</h1>
      <p className="hint">Background work of this workspace that is queued, running, failed or dead.</p>
      <DataTable
        rows={jobs}
        columns={["Job", "State", "Attempts", "Created", "Error", ACTIONS_COLUMN]}
        empty="No jobs waiting, running or failed."
      >
        {(job) => (
          <tr key={job.id} data-testid="job-row" data-state={job.state}>
            <td>{QUEUE_LABELS[job.queue] ?? job.queue}</td>
            <td>
              {STATE_LABELS[job.state]}
              {job.state === "failed" && (
                <span className="hint"> (next attempt {formatDateTime(job.runAfter, ctx.timeZone)})</span>
              )}
            </td>
            <td>
              {job.attempts} of {job.maxAttempts}
            </td>
            <td>{formatDateTime(job.createdAt, ctx.timeZone)}</td>
            <td style={{ whiteSpace: "pre-wrap" }}>{job.error ?? ""}</td>
            <td>
              {job.state === "dead" && (
                <form action={asFormAction(retryJobAction)}>
                  <input type="hidden" name="jobId" value={job.id} />
                  <button type="submit" className="secondary">
                    Retry
                  </button>
                </form>
              )}
            </td>
          </tr>
        )}
      </DataTable>
    </>
  );
}
