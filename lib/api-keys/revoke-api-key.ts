import { asService, type Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
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
): Promise<Result<{ id: string }>> {
  // one refusal for both: a key of another workspace is not told apart from a missing one
  const refusal = () => refused("not_found", "This key does not exist or you cannot revoke it.");
  if (!(await isAdminOf(db, input.workspaceId))) return refusal();
  const [row] = await asService(
    db,
    () => db`
      update public.api_keys set revoked_at = coalesce(revoked_at, now())
      where id = ${input.keyId} and workspace_id = ${input.workspaceId} returning id, key_hash`,
  );
  if (row) forgetApiKey(row.key_hash);
  return row ? { data: { id: row.id } } : refusal();
}
