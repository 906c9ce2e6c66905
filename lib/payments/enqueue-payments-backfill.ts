import type { Db } from "@/lib/db/doors";
import { enqueue } from "@/lib/jobs/enqueue";

/**
 * The payments backfill started from the dashboard (docs/decisions.md, "Payment backfills"): the CLI's three
 * phases as a job on a worker, not in a request. The caller has checked the member is an owner or admin of
 * the workspace.
 */
export async function enqueuePaymentsBackfill(db: Db, workspaceId: string): Promise<void> {
  await enqueue(db, { queue: "payments-backfill", data: { workspaceId } });
}
