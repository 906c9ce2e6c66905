import { asService, type Db } from "@/lib/db/doors";
import { isAdminOf } from "./issue-api-key";
import { forgetApiKey } from "@/lib/events/public-api/api-key-cache";

/**
 * Revokes a key for good: from then on it gets 403 (at once in this process, within the key
 * cache's lifetime in others). Owners and admins only: checked as the caller, then the row is
 * changed through the service door (the database keeps a revoked key revoked).
 */
export async function revokeApiKey(
  db: Db,
  input: { workspaceId: string; keyId: string },
): Promise<{ data: { id: string } } | { error: string }> {
  const refused = { error: "This key does not exist or you cannot revoke it." };
  if (!(await isAdminOf(db, input.workspaceId))) return refused;
  const [row] = await asService(
    db,
    () => db`
      update public.api_keys set revoked_at = coalesce(revoked_at, now())
      where id = ${input.keyId} and workspace_id = ${input.workspaceId} returning id, key_hash`,
  );
  if (row) forgetApiKey(row.key_hash);
  return row ? { data: { id: row.id } } : refused;
}
