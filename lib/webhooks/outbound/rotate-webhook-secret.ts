import { sealSecret } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { newSigningSecret } from "./signing-secret";
import { writeWebhookSecret } from "./write-webhook-secret";

/**
 * A new signing secret for an endpoint (owners and admins: the caller's check; written through the service path), returned once. Deliveries
 * from now on, retries included, are signed with it.
 */
export async function rotateWebhookSecret(
  db: Db,
  input: { workspaceId: string; endpointId: string },
): Promise<Result<{ secret: string }>> {
  const secret = newSigningSecret();
  const [row] = await writeWebhookSecret(
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
