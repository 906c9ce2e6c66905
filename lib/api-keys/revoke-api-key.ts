import type { Db } from "@/lib/db/doors";
import { forgetApiKey } from "@/lib/events/public-api/api-key-cache";

/**
 * Revokes a key for good: from then on it gets 403 (at once in this process, within the key
 * cache's lifetime in others). Owners and admins only (RLS).
 */
export async function revokeApiKey(
  db: Db,
  input: { workspaceId: string; keyId: string },
): Promise<{ data: { id: string } } | { error: string }> {
  const [row] = await db`
    update public.api_keys set revoked_at = coalesce(revoked_at, now())
    where id = ${input.keyId} and workspace_id = ${input.workspaceId} returning id, key_hash`;
  if (row) forgetApiKey(row.key_hash);
  return row ? { data: { id: row.id } } : { error: "This key does not exist or you cannot revoke it." };
}
