import type { Db } from "@/lib/db/doors";
import { externalTransactionId } from "../checkout-from-stripe";
import { centsToNumeric } from "../money";
import { applyChargeRefund } from "../refund-engine";

export interface PaidInvoiceInput {
  workspaceId: string;
  payprocSubscriptionId: string;
  invoiceId: string;
  paymentIntentId: string;
  /** the Stripe product of the invoice's line (else the plan's, else the price) */
  payprocProductId: string | null;
  amountCents: number;
  currency: string;
  paidAt: Date;
  /** the charge's cumulative amount_refunded when the invoice was read from Stripe */
  chargeRefundedCents: number;
}

export type PaidInvoiceResult =
  | { status: "recorded" | "duplicate"; transactionId: string | null; refundTier: number | null }
  | { status: "no_subscription" };

/**
 * Spec 4.15 and DESIGN section 9 "Recurring": a paid invoice of a subscription is one transactions row
 * in the subscriber's feed, keyed '<invoice_id>_<product_id>' (as a checkout's
 * '<session_id>_<product_id>', spec 2.5) and carrying the invoice's payment intent, so a
 * charge.refunded of that intent, from our dashboard or Stripe's, reaches it through the three-tier
 * refund engine. A refund Stripe had made before the invoice reached us (its events came out of
 * order) goes through the same engine now, so the row ends the same whatever the order.
 */
export async function recordPaidInvoice(db: Db, input: PaidInvoiceInput): Promise<PaidInvoiceResult> {
  const [sub] = await db`
    select s.contact_id, p.name, p.payproc_product_id, p.payproc_price_id
    from public.subscriptions s join public.plans p on p.workspace_id = s.workspace_id and p.id = s.plan_id
    where s.workspace_id = ${input.workspaceId} and s.payproc_subscription_id = ${input.payprocSubscriptionId}`;
  if (!sub) return { status: "no_subscription" };
  const productId = (input.payprocProductId ?? sub.payproc_product_id ?? sub.payproc_price_id) as string;
  const [row] = await db`
    with inserted as (
      insert into public.products (workspace_id, payproc_product_id, name)
      values (${input.workspaceId}, ${productId}, ${sub.name})
      on conflict (workspace_id, payproc_product_id) do nothing
      returning id
    ), product as (
      select id from inserted
      union all
      select id from public.products where workspace_id = ${input.workspaceId} and payproc_product_id = ${productId}
      limit 1
    )
    insert into public.transactions (workspace_id, contact_id, product_id, amount_paid, currency,
      external_payproc_transaction_id, payproc_payment_intent_id, status, amount_refunded, transaction_date)
    select ${input.workspaceId}, ${sub.contact_id}, product.id, ${centsToNumeric(input.amountCents)},
           ${input.currency.toLowerCase()}, ${externalTransactionId(input.invoiceId, productId)},
           ${input.paymentIntentId}, 'succeeded', 0, ${input.paidAt}
    from product
    on conflict (external_payproc_transaction_id) do nothing
    returning id`;
  let refundTier: number | null = null;
  if (input.chargeRefundedCents > 0) {
    const refund = await applyChargeRefund(db, {
      workspaceId: input.workspaceId,
      paymentIntentId: input.paymentIntentId,
      chargeRefundedCents: input.chargeRefundedCents,
      runAutomations: true,
    });
    refundTier = refund.tier;
  }
  return { status: row ? "recorded" : "duplicate", transactionId: row?.id ?? null, refundTier };
}
