import type { Db } from "@/lib/db/doors";

/**
 * A workspace's "members must use two-factor" setting (owners set it). Read and written through
 * the service door only: members hold no privilege on workspace_security.
 */
export async function requiresTwoFactor(db: Db, workspaceId: string): Promise<boolean> {
  const [row] = await db`
    select require_two_factor from public.workspace_security where workspace_id = ${workspaceId}`;
  return Boolean(row?.require_two_factor);
}

/** Sets the requirement; returns the value before, for the audit row (null: unchanged). */
export async function setTwoFactorRequirement(
  db: Db,
  input: { workspaceId: string; required: boolean },
): Promise<{ before: boolean } | null> {
  const before = await requiresTwoFactor(db, input.workspaceId);
  if (before === input.required) return null;
  await db`
    insert into public.workspace_security (workspace_id, require_two_factor)
    values (${input.workspaceId}, ${input.required})
    on conflict (workspace_id) do update set require_two_factor = excluded.require_two_factor, updated_at = now()`;
  return { before };
}
