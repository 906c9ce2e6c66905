import type { Db } from "@/lib/db/doors";
import type { PayprocConnection } from "./resolve-connection";

export interface SavePayprocConnectionInput {
  workspaceId: string;
  payprocAccountId: string | null;
  livemode: boolean;
  autoSubscribePurchasers: boolean;
}

export const ACCOUNT_TAKEN = "This Stripe account is already connected to another workspace.";

/**
 * Spec 2.10: the workspace's payproc_connections row (one per workspace), created or
 * updated. Runs as the member: RLS lets only owners and admins write it.
 */
export async function savePayprocConnection(
  db: Db,
  input: SavePayprocConnectionInput,
): Promise<{ data: PayprocConnection } | { error: string }> {
  try {
    const [row] = await db.savepoint(
      (sp) => sp<PayprocConnection[]>`
        insert into public.payproc_connections (workspace_id, payproc_account_id, livemode, auto_subscribe_purchasers)
        values (${input.workspaceId}, ${input.payprocAccountId}, ${input.livemode}, ${input.autoSubscribePurchasers})
        on conflict (workspace_id) do update set
          payproc_account_id = excluded.payproc_account_id,
          livemode = excluded.livemode,
          auto_subscribe_purchasers = excluded.auto_subscribe_purchasers
        returning id, workspace_id, payproc_account_id, livemode, auto_subscribe_purchasers`,
    );
    return { data: row };
  } catch (error) {
    if ((error as { code?: string }).code === "23505") return { error: ACCOUNT_TAKEN };
    throw error;
  }
}

/** Removes the connection; purchases already recorded stay. */
export async function deletePayprocConnection(db: Db, workspaceId: string): Promise<void> {
  await db`delete from public.payproc_connections where workspace_id = ${workspaceId}`;
}
