import type { Db } from "@/lib/db/doors";
import { enqueue } from "@/lib/jobs/enqueue";

/**
 * An Eventbrite import and sync of the workspace as a job (issue 14): after connecting, and the
 * manual re-sync. The caller has checked the workspace is the signed-in admin's.
 */
export async function enqueueTicketingSync(db: Db, workspaceId: string): Promise<void> {
  await enqueue(db, { queue: "ticketing-sync", data: { workspaceId } });
}
