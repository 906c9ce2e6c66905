import type { Db } from "@/lib/db/doors";
import type { RefundResult } from "./record-transaction-refund";

/**
 * Spec 4.15 revertTransactionRefund and 3.1: refunded → succeeded, amount_refunded 0. A
 * partly refunded row is reverted the same way; a row with nothing refunded is an error.
 */
export async function revertTransactionRefund(
  db: Db,
  input: { workspaceId: string; transactionId: string },
): Promise<RefundResult> {
  const [row] = await db`
    select amount_refunded > 0 as has_refund from public.transactions
    where id = ${input.transactionId} and workspace_id = ${input.workspaceId}
    for update`;
  if (!row) return { success: false, error: "Transaction not found." };
  if (!row.has_refund) return { success: false, error: "This transaction has no refund to revert." };
  await db`
    update public.transactions set status = 'succeeded', amount_refunded = 0
    where id = ${input.transactionId} and workspace_id = ${input.workspaceId}`;
  return { success: true };
}
