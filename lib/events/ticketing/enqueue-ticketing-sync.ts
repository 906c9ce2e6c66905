import type { Db } from "@/lib/db/doors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";

/**
 * The Eventbrite import and sync as a job (docs/decisions.md, "Ticketing processing and sync"): after
 * connecting, and the manual re-sync. The caller has checked the workspace is the signed-in admin's.
 */
export async function enqueueTicketingSync(db: Db, workspaceId: string): Promise<void> {
  await enqueueJob(db, "ticketing-sync", { workspaceId });
}
