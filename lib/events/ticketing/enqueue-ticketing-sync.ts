import type { Db } from "@/lib/db/doors";
import { enqueue } from "@/lib/jobs/enqueue";

/**
 * The Eventbrite import and sync as a job (docs/decisions.md, "Ticketing processing and sync"): after
 * connecting, and the manual re-sync. The caller has checked the workspace is the signed-in admin's.
 */
export async function enqueueTicketingSync(db: Db, workspaceId: string): Promise<void> {
  await enqueue(db, { queue: "ticketing-sync", data: { workspaceId } });
}
