import type { Db } from "@/lib/db/doors";

export interface WebhookDeliveryRow {
  id: string;
  message_id: string;
  event_type: string;
  status: "pending" | "succeeded" | "failed";
  attempts: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_response_excerpt: string | null;
  replay_of: string | null;
  created_at: Date;
  payload: unknown;
}

export const DELIVERIES_PAGE_SIZE = 50;

/** An endpoint's delivery log, newest first (owners and admins, RLS). */
export async function listWebhookDeliveries(
  db: Db,
  input: { workspaceId: string; endpointId: string; status?: WebhookDeliveryRow["status"]; page?: number },
): Promise<WebhookDeliveryRow[]> {
  const page = Math.max(1, input.page ?? 1);
  return db<WebhookDeliveryRow[]>`
    select id, message_id, event_type, status, attempts, next_attempt_at, last_attempt_at, last_status_code,
           last_duration_ms, last_response_excerpt, replay_of, created_at, payload
    from public.webhook_deliveries
    where workspace_id = ${input.workspaceId} and endpoint_id = ${input.endpointId}
      ${input.status ? db`and status = ${input.status}` : db``}
    order by created_at desc, id desc
    limit ${DELIVERIES_PAGE_SIZE} offset ${(page - 1) * DELIVERIES_PAGE_SIZE}`;
}
