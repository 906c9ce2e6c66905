import { sealSecret } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { newSigningSecret } from "./signing-secret";
import { writeWebhookEndpoint } from "./write-webhook-endpoint";

/**
 * A new signing secret for an endpoint (owners and admins; written through the service path,
 * write-webhook-endpoint.ts), returned once. Deliveries from now on, retries included, are signed with it.
 */
export async function rotateWebhookSecret(
  db: Db,
  input: { workspaceId: string; endpointId: string },
): Promise<Result<{ secret: string }>> {
  const secret = newSigningSecret();
  const [row] = await writeWebhookEndpoint(
    db,
    input.workspaceId,
    () => db`
    update public.webhook_endpoints set secret_ciphertext = ${sealSecret(secret)}
    where id = ${input.endpointId} and workspace_id = ${input.workspaceId}
    returning id`,
  );
  return row
    ? { data: { secret } }
    : refused("not_found", "This endpoint does not exist or you cannot change it.");
}
