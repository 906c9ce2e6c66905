import type { Db } from "@/lib/db/doors";
import { enqueue } from "@/lib/jobs/enqueue";

/**
 * Hands a stored delivery to the job engine in the transaction that stored it (issue 14): once
 * the 200 is sent, the job exists, so a crash after the answer loses nothing.
 */
export async function enqueueTicketingDelivery(db: Db, inboxId: string): Promise<void> {
  const [row] = await db`select workspace_id from public.webhook_inbox where id = ${inboxId}`;
  await enqueue(db, { queue: "ticketing-delivery", data: { workspaceId: row.workspace_id, inboxId } });
}
