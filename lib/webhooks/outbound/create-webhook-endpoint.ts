import { sealSecret } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/doors";
import type { WebhookEndpointInput } from "./schemas";
import { writeWebhookEndpoint } from "./write-webhook-endpoint";
import { newSigningSecret } from "./signing-secret";

/**
 * Adds an endpoint (owners and admins: the caller's check). The signing secret is returned here once
 * and stored only encrypted, written through the service path (write-webhook-endpoint.ts).
 */
export async function createWebhookEndpoint(
  db: Db,
  input: WebhookEndpointInput & { workspaceId: string },
): Promise<{ data: { id: string; secret: string } }> {
  const secret = newSigningSecret();
  const [row] = await writeWebhookEndpoint(
    db,
    input.workspaceId,
    () => db`
    insert into public.webhook_endpoints (workspace_id, url, description, event_types, enabled, secret_ciphertext,
                                          created_by)
    values (${input.workspaceId}, ${input.url}, ${input.description}, ${input.eventTypes}, ${input.enabled},
            ${sealSecret(secret)}, auth.uid())
    returning id`,
  );
  return { data: { id: row.id, secret } };
}
