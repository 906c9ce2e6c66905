import { asService, type Db } from "@/lib/db/doors";
import { AppError, refused, type Result } from "@/lib/errors/app-error";
import type { PayprocConnection } from "./resolve-connection";

/**
 * Spec 2.10: the workspace's payproc_connections row (one per workspace), created or replaced
 * with what Stripe Connect answered (flows/complete-stripe-connection.ts is the only caller:
 * the account id and live mode are never typed by a member). The caller must be an owner or
 * admin of the workspace, checked as themself in this transaction; the row is then written
 * through the service door, since no member may write the account id or live mode
 * (docs/decisions.md, "The database is the boundary"); anyone else is refused (AppError
 * forbidden). An account connected to another workspace hits the unique key and is reported as
 * a `conflict` refusal without saying so.
 */
export async function savePayprocConnection(
  db: Db,
  input: { workspaceId: string; payprocAccountId: string; livemode: boolean },
): Promise<Result<PayprocConnection>> {
  const [{ admin }] = await db`
    select public.has_workspace_role(${input.workspaceId}, array['owner', 'admin']) as admin`;
  if (!admin) throw new AppError("forbidden");
  try {
    const [row] = await db.savepoint((sp) =>
      asService(
        sp,
        () => sp<PayprocConnection[]>`
          insert into public.payproc_connections (workspace_id, payproc_account_id, livemode)
          values (${input.workspaceId}, ${input.payprocAccountId}, ${input.livemode})
          on conflict (workspace_id) do update set
            payproc_account_id = excluded.payproc_account_id,
            livemode = excluded.livemode
          returning id, workspace_id, payproc_account_id, livemode, auto_subscribe_purchasers`,
      ),
    );
    return { data: row };
  } catch (error) {
    if ((error as { code?: string }).code === "23505") return refused("conflict");
    throw error;
  }
}

/** The one setting a member chooses: subscribe purchasers (spec 2.10). Admin+ by RLS. */
export async function savePayprocSettings(
  db: Db,
  input: { workspaceId: string; autoSubscribePurchasers: boolean },
): Promise<{ data: { updated: boolean } }> {
  const rows = await db`
    update public.payproc_connections set auto_subscribe_purchasers = ${input.autoSubscribePurchasers}
    where workspace_id = ${input.workspaceId}
    returning id`;
  return { data: { updated: rows.length > 0 } };
}

/** Removes the connection; purchases already recorded stay. Returns the account it held, if any. */
export async function deletePayprocConnection(db: Db, workspaceId: string): Promise<string | null> {
  const [row] = await db`
    delete from public.payproc_connections where workspace_id = ${workspaceId} returning payproc_account_id`;
  return (row?.payproc_account_id as string | null | undefined) ?? null;
}
