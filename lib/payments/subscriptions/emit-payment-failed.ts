import type Stripe from "stripe";
import type { Db } from "@/lib/db/doors";
import { centsToNumeric } from "../money";

/**
 * The outbound `payment.failed` event (docs/decisions.md, "Outbound webhooks") of one
 * invoice.payment_failed, in the webhook's transaction: once per Stripe event, as the inbox
 * processes each event once. Only endpoints of the workspace that chose it get it.
 */
export async function emitPaymentFailed(
  db: Db,
  input: { workspaceId: string; payprocSubscriptionId: string; invoice: Stripe.Invoice },
): Promise<void> {
  const { invoice } = input;
  const next = invoice.next_payment_attempt
    ? new Date(invoice.next_payment_attempt * 1000).toISOString()
    : null;
  await db`
    select public.emit_webhook_events('payment.failed', jsonb_build_array(jsonb_build_object(
      'workspace_id', ${input.workspaceId}::uuid,
      'data', jsonb_build_object(
        'contact_id', s.contact_id, 'subscription_id', s.id,
        'payproc_subscription_id', ${input.payprocSubscriptionId}::text, 'payproc_invoice_id', ${invoice.id}::text,
        'amount_due', ${centsToNumeric(invoice.amount_due)}::numeric, 'currency', ${invoice.currency}::text,
        'attempt_count', ${invoice.attempt_count ?? 0}::int, 'next_payment_attempt', ${next}::text))))
    from (select) one
    left join public.subscriptions s
      on s.workspace_id = ${input.workspaceId} and s.payproc_subscription_id = ${input.payprocSubscriptionId}`;
}
