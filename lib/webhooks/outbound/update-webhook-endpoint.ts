import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import type { WebhookEndpointInput } from "./schemas";
import { ENDPOINT_NOT_FOUND as NOT_FOUND, writeWebhookEndpoint } from "./write-webhook-endpoint";

/**
 * Changes an endpoint (owners and admins, through the service path: write-webhook-endpoint.ts).
 * Enabling it again forgets its run of failures.
 */
export async function updateWebhookEndpoint(
  db: Db,
  input: WebhookEndpointInput & { workspaceId: string; endpointId: string },
): Promise<Result<{ id: string }>> {
  const [row] = await writeWebhookEndpoint(
    db,
    input.workspaceId,
    () => db`
      update public.webhook_endpoints
      set url = ${input.url}, description = ${input.description}, event_types = ${input.eventTypes},
          enabled = ${input.enabled},
          failing_since = case when ${input.enabled} and not enabled then null else failing_since end,
          disabled_reason = case when ${input.enabled} then null else disabled_reason end
      where id = ${input.endpointId} and workspace_id = ${input.workspaceId}
      returning id`,
  );
  return row ? { data: { id: row.id } } : refused("not_found", NOT_FOUND);
}

/** Removes an endpoint and its delivery log (owners and admins, through the service path). */
export async function deleteWebhookEndpoint(
  db: Db,
  input: { workspaceId: string; endpointId: string },
): Promise<Result<{ id: string }>> {
  const [row] = await writeWebhookEndpoint(
    db,
    input.workspaceId,
    () => db`
      delete from public.webhook_endpoints where id = ${input.endpointId} and workspace_id = ${input.workspaceId}
      returning id`,
  );
  return row ? { data: { id: row.id } } : refused("not_found", NOT_FOUND);
}
