import type { Db } from "@/lib/db/doors";

export interface PayprocConnection {
  id: string;
  workspace_id: string;
  payproc_account_id: string | null;
  livemode: boolean;
  auto_subscribe_purchasers: boolean;
}

/**
 * Spec 4.4 step 1: the workspace of an event is the connection of the event's account. An
 * event without an account (development, test) falls back to the single connection whose
 * live-mode flag equals the event's; none or several such connections resolve to nothing.
 */
export async function resolveConnection(
  db: Db,
  event: { account?: string | null; livemode: boolean },
): Promise<PayprocConnection | null> {
  const rows = event.account
    ? await db<PayprocConnection[]>`
        select id, workspace_id, payproc_account_id, livemode, auto_subscribe_purchasers
        from public.payproc_connections where payproc_account_id = ${event.account}`
    : await db<PayprocConnection[]>`
        select id, workspace_id, payproc_account_id, livemode, auto_subscribe_purchasers
        from public.payproc_connections where livemode = ${event.livemode}
        limit 2`;
  return rows.length === 1 ? rows[0] : null;
}

/** The workspace's connection (backfills need its account id). */
export async function connectionOfWorkspace(db: Db, workspaceId: string): Promise<PayprocConnection | null> {
  const [row] = await db<PayprocConnection[]>`
    select id, workspace_id, payproc_account_id, livemode, auto_subscribe_purchasers
    from public.payproc_connections where workspace_id = ${workspaceId}`;
  return row ?? null;
}
