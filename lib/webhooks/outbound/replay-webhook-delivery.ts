import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";

/** Sends a delivered (or failed) message again, as a new delivery with the same webhook-id (owners and admins). */
export async function replayWebhookDelivery(
  db: Db,
  input: { deliveryId: string },
): Promise<Result<{ id: string }>> {
  const [row] = await db`select public.replay_webhook_delivery(${input.deliveryId}) as id`;
  return row?.id
    ? { data: { id: row.id } }
    : refused("not_found", "This delivery does not exist or you cannot replay it.");
}

/** Queues a webhook.test message to one endpoint (owners and admins). */
export async function sendWebhookTestEvent(
  db: Db,
  input: { endpointId: string },
): Promise<Result<{ id: string }>> {
  const [row] = await db`select public.send_webhook_test_event(${input.endpointId}) as id`;
  return row?.id
    ? { data: { id: row.id } }
    : refused("not_found", "This endpoint does not exist or you cannot use it.");
}
