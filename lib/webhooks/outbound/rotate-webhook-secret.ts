import { sealSecret } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/doors";
import { newSigningSecret } from "./signing-secret";

/**
 * A new signing secret for an endpoint (owners and admins, RLS), returned once. Deliveries
 * from now on, retries included, are signed with it.
 */
export async function rotateWebhookSecret(
  db: Db,
  input: { workspaceId: string; endpointId: string },
): Promise<{ data: { secret: string } } | { error: string }> {
  const secret = newSigningSecret();
  const [row] = await db`
    update public.webhook_endpoints set secret_ciphertext = ${sealSecret(secret)}
    where id = ${input.endpointId} and workspace_id = ${input.workspaceId}
    returning id`;
  return row ? { data: { secret } } : { error: "This endpoint does not exist or you cannot change it." };
}
