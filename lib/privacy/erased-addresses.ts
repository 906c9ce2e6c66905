import type { Db } from "@/lib/db/doors";

/**
 * The workspace's salt for the erasure list and the address suppressions, created on first use
 * (one maker, in the database, since the suppressions' triggers need it too).
 */
export async function ensurePrivacySalt(db: Db, workspaceId: string): Promise<void> {
  await db`select public.ensure_privacy_salt(${workspaceId})`;
}

/**
 * When the address was erased from the workspace, or null (never, or a salt never made): a
 * scalar subquery, so a hot path reads it in a statement it sends anyway.
 */
export function erasedAtOf(db: Db, input: { workspaceId: string; email: string }) {
  return db`(
    select e.erased_at from public.erased_addresses e
    where e.workspace_id = ${input.workspaceId}
      and e.address_hash = public.erased_address_hash(${input.workspaceId}, ${input.email}))`;
}

/** The sentence an import row or a checkout note carries for an erased address. */
export function erasedMessage(erasedAt: Date): string {
  return `This address was erased on ${erasedAt.toISOString().slice(0, 10)} at the person's request; it is not re-created from a list or a purchase.`;
}
