import type { Db } from "@/lib/db/doors";
import { fireProductRefunded as fireOne } from "./fire-product-refunded";
import { closeReviewTasks } from "@/lib/tasks/close-review-tasks";
import { toCents } from "./money";
import { decideRefundTier, type TierDecision } from "./refund-tiers";
import {
  createReviewTask,
  SUPERSEDED_CLOSING_REASON,
  TIER1_CLOSING_REASON,
  TIER2_CLOSING_REASON,
} from "./review-task";

export interface ApplyChargeRefundInput {
  workspaceId: string;
  paymentIntentId: string;
  /** the charge's cumulative amount_refunded, in cents */
  chargeRefundedCents: number;
  /**
   * false for the refund backfill (spec 4.12, 6.2): no product_refunded trigger, no review
   * task, no notification.
   */
  runAutomations: boolean;
  now?: Date;
}

export interface ApplyChargeRefundResult {
  /** rows of the intent found in the workspace */
  matched: number;
  tier: TierDecision["tier"];
  deltaCents: number;
  refundedTransactionIds: string[];
  reviewTaskId: string | null;
  closedTaskIds: string[];
}

interface LockedRow {
  id: string;
  contact_id: string | null;
  product_id: string | null;
  product_name: string;
  amount_paid: string;
  amount_refunded: string;
  currency: string;
  transaction_date: Date;
}

/**
 * Spec 3.1 and 4.4, charge.refunded: the three tiers applied to the intent's rows. The rows are
 * locked first (select … for update, always in id order), so two refund events of one intent at
 * the same time run one after the other and the second computes its delta from what the
 * first recorded.
 */
export async function applyChargeRefund(
  db: Db,
  input: ApplyChargeRefundInput,
): Promise<ApplyChargeRefundResult> {
  const rows = await db<LockedRow[]>`
    select t.id, t.contact_id, t.product_id, coalesce(p.name, 'Product') as product_name,
           t.amount_paid, t.amount_refunded, t.currency, t.transaction_date
    from public.transactions t
    left join public.products p on p.id = t.product_id
    where t.workspace_id = ${input.workspaceId} and t.payproc_payment_intent_id = ${input.paymentIntentId}
    order by t.id
    for update of t`;
  const decision = decideRefundTier(
    rows.map((r) => ({
      id: r.id,
      paidCents: toCents(r.amount_paid),
      refundedCents: toCents(r.amount_refunded),
    })),
    input.chargeRefundedCents,
  );
  const result: ApplyChargeRefundResult = {
    matched: rows.length,
    tier: decision.tier,
    deltaCents: decision.deltaCents,
    refundedTransactionIds: [],
    reviewTaskId: null,
    closedTaskIds: [],
  };
  const scope = { workspaceId: input.workspaceId, paymentIntentId: input.paymentIntentId };

  if (decision.tier === 1 || decision.tier === 2) {
    const ids = decision.refundIds;
    await db`
      update public.transactions set amount_refunded = amount_paid, status = 'refunded'
      where id in ${db(ids)}`;
    result.refundedTransactionIds = ids;
    if (input.runAutomations)
      await fireProductRefunded(
        db,
        input,
        rows.filter((r) => ids.includes(r.id)),
      );
    const reason = decision.tier === 1 ? TIER1_CLOSING_REASON : TIER2_CLOSING_REASON;
    result.closedTaskIds = await closeReviewTasks(db, { ...scope, reason });
  }

  if (decision.tier === 3 && input.runAutomations) {
    result.closedTaskIds = await closeReviewTasks(db, { ...scope, reason: SUPERSEDED_CLOSING_REASON });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const byName = [...rows].sort((a, b) => a.product_name.localeCompare(b.product_name));
    const task = await createReviewTask(db, {
      ...scope,
      contactId: rows.find((r) => r.contact_id)?.contact_id ?? null,
      deltaCents: decision.deltaCents,
      currency: rows[0].currency,
      purchasedAt: rows.reduce(
        (min, r) => (r.transaction_date < min ? r.transaction_date : min),
        rows[0].transaction_date,
      ),
      products: byName.map((r) => ({
        name: r.product_name,
        paidCents: toCents(r.amount_paid),
        refundedCents: toCents(r.amount_refunded),
      })),
      reason: decision.reason,
      matchingNames: decision.matchingIds.map((id) => byId.get(id)!.product_name).sort(),
      now: input.now,
    });
    result.reviewTaskId = task.id;
  }
  return result;
}

/** Spec 6.2: product_refunded, once per refunded product. */
async function fireProductRefunded(
  db: Db,
  input: ApplyChargeRefundInput,
  refunded: LockedRow[],
): Promise<void> {
  for (const row of refunded) {
    if (!row.contact_id) continue;
    await fireOne(db, {
      workspaceId: input.workspaceId,
      paymentIntentId: input.paymentIntentId,
      row: { ...row, contact_id: row.contact_id },
    });
  }
}
