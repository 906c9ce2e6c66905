import { asServiceForMember, type Db } from "@/lib/db/doors";
import { AppError, refused, type Refused } from "@/lib/errors/app-error";
import { fireProductRefunded } from "./fire-product-refunded";
import { closeReviewTasks } from "@/lib/tasks/close-review-tasks";
import { centsToNumeric, dollarsToCents, formatMoney, toCents } from "./money";
import { TIER2_CLOSING_REASON } from "./review-task";

export interface RecordTransactionRefundInput {
  /** the caller's workspace, resolved on the server; the transaction must belong to it */
  workspaceId: string;
  transactionId: string;
  /** dollars (spec 4.15) */
  refundAmount: number;
  runAutomations: boolean;
}

/** Done, or refused: invalid (the amount), not_found, or conflict (nothing left to refund or revert). */
export type RefundResult = { success: true } | Refused;

/** The caller is no member of the workspace: the transaction is not theirs to see. */
export const notFound = () => new AppError("not_found", "Transaction not found.");

/** Backfill sentinels are not payment intents: rows carrying one have no siblings. */
export const INTENT_SENTINELS = ["none", "error_fetching", "invalid_format"];

interface Row {
  id: string;
  contact_id: string | null;
  product_id: string | null;
  payproc_payment_intent_id: string | null;
  amount_paid: string;
  amount_refunded: string;
  currency: string;
}

/**
 * Spec 4.15 recordTransactionRefund and 3.1: records a partial or full refund by hand. The
 * amount is compared in whole cents (rounded), so 0.1 + 0.2 never overshoots. When nothing
 * remains the row is 'refunded' and, with runAutomations, product_refunded fires; when every
 * row of the payment intent is then fully refunded its open review tasks are closed. The
 * intent's rows are locked in id order, as the refund engine locks them.
 */
export async function recordTransactionRefund(
  db: Db,
  input: RecordTransactionRefundInput,
): Promise<RefundResult> {
  if (!Number.isFinite(input.refundAmount)) return refused("invalid", "Enter the amount to refund.");
  const cents = dollarsToCents(input.refundAmount);
  if (cents <= 0) return refused("invalid", "The refund amount must be greater than zero.");

  const rows = await db<Row[]>`
    select t.id, t.contact_id, t.product_id, t.payproc_payment_intent_id, t.amount_paid, t.amount_refunded, t.currency
    from public.transactions t
    where t.workspace_id = ${input.workspaceId}
      and (t.id = ${input.transactionId} or t.payproc_payment_intent_id = (
        select s.payproc_payment_intent_id from public.transactions s
        where s.id = ${input.transactionId} and s.workspace_id = ${input.workspaceId}
          and s.payproc_payment_intent_id not in ${db(INTENT_SENTINELS)}))
    order by t.id
    for update`;
  const row = rows.find((r) => r.id === input.transactionId);
  if (!row) return refused("not_found", "Transaction not found.");

  const remaining = toCents(row.amount_paid) - toCents(row.amount_refunded);
  if (remaining <= 0) return refused("conflict", "This transaction is already fully refunded.");
  if (cents > remaining)
    return refused(
      "invalid",
      `The refund cannot be more than the remaining balance of ${formatMoney(remaining, row.currency)}.`,
    );

  const refunded = toCents(row.amount_refunded) + cents;
  const full = refunded === toCents(row.amount_paid);
  // the row was read and locked as the caller; the write goes through the service door so that the
  // adapter's transaction.refund_recorded is its one audit row (docs/decisions.md, "Members' writes to
  // transactions are audited, not revoked")
  await asServiceForMember(
    db,
    input.workspaceId,
    notFound,
    () => db`
    update public.transactions
    set amount_refunded = ${centsToNumeric(refunded)}, status = ${full ? "refunded" : "succeeded"}
    where id = ${row.id} and workspace_id = ${input.workspaceId}`,
  );

  if (full && input.runAutomations && row.contact_id) {
    await fireProductRefunded(db, {
      workspaceId: input.workspaceId,
      paymentIntentId: row.payproc_payment_intent_id,
      row: { ...row, contact_id: row.contact_id },
    });
  }

  const siblingsDone = rows.every((r) =>
    r.id === row.id ? full : toCents(r.amount_refunded) >= toCents(r.amount_paid),
  );
  const intent = row.payproc_payment_intent_id;
  if (full && siblingsDone && intent && !INTENT_SENTINELS.includes(intent)) {
    await closeReviewTasks(db, {
      workspaceId: input.workspaceId,
      paymentIntentId: intent,
      reason: TIER2_CLOSING_REASON,
    });
  }
  return { success: true };
}
