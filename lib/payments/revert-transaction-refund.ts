import { asServiceForMember, type Db } from "@/lib/db/doors";
import { refused } from "@/lib/errors/app-error";
import { notFound, type RefundResult } from "./record-transaction-refund";

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
  if (!row) return refused("not_found", "Transaction not found.");
  if (!row.has_refund) return refused("conflict", "This transaction has no refund to revert.");
  // read and locked as the caller above; written through the service door, as recordTransactionRefund
  await asServiceForMember(
    db,
    input.workspaceId,
    notFound,
    () => db`
    update public.transactions set status = 'succeeded', amount_refunded = 0
    where id = ${input.transactionId} and workspace_id = ${input.workspaceId}`,
  );
  return { success: true };
}
