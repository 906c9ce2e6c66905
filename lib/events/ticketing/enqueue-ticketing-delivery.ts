import type { Db } from "@/lib/db/doors";
import { enqueue } from "@/lib/jobs/enqueue";

/**
 * Enqueues a stored delivery's job in the transaction that stored it: once the 200 is sent, the job
 * exists, so a crash after the answer loses nothing (docs/decisions.md, "Ticketing processing and sync").
 */
export async function enqueueTicketingDelivery(db: Db, inboxId: string): Promise<void> {
  const [row] = await db`select workspace_id from public.webhook_inbox where id = ${inboxId}`;
  await enqueue(db, { queue: "ticketing-delivery", data: { workspaceId: row.workspace_id, inboxId } });
}
