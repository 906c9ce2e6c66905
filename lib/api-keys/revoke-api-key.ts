import type { Db } from "@/lib/db/doors";

/** Revokes a key for good: from then on it gets 403. Owners and admins only (RLS). */
export async function revokeApiKey(
  db: Db,
  input: { workspaceId: string; keyId: string },
): Promise<{ data: { id: string } } | { error: string }> {
  const [row] = await db`
    update public.api_keys set revoked_at = coalesce(revoked_at, now())
    where id = ${input.keyId} and workspace_id = ${input.workspaceId} returning id`;
  return row ? { data: { id: row.id } } : { error: "This key does not exist or you cannot revoke it." };
}
