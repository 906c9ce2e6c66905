import type Stripe from "stripe";
import { withServiceStatement, type Db } from "@/lib/db/doors";
import { log } from "@/lib/observability/log";
import { idOf } from "../checkout-from-stripe";
import type { PayprocConnection } from "../resolve-connection";
import { onAccount } from "../stripe-client";
import { withStripeRetry } from "../stripe-retry";
import { emitPaymentFailed } from "../subscriptions/emit-payment-failed";
import { applySubscription, type ApplySubscriptionInput } from "../subscriptions/apply-subscription";
import { recordPaidInvoice } from "../subscriptions/record-paid-invoice";
import {
  customerOf,
  paymentIntentOfInvoice,
  subscriptionIdOfInvoice,
  subscriptionState,
} from "../subscriptions/stripe-billing-shapes";

/** Stripe Billing's events the payment webhook takes (DESIGN section 9 "Recurring"). */
export const BILLING_EVENTS = new Set([
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
]);

/** Is this event Stripe Billing's (a checkout in subscription mode is)? */
export function isBillingEvent(event: Stripe.Event): boolean {
  if (BILLING_EVENTS.has(event.type)) return true;
  return (
    event.type === "checkout.session.completed" &&
    (event.data.object as Stripe.Checkout.Session).mode === "subscription"
  );
}

type Process = (db: Db) => Promise<Record<string, unknown>>;

interface Held {
  workspace_id: string;
  synced_through: Date;
}

/**
 * docs/decisions.md, "Subscriptions mirror Stripe's newest object". The network part, before the
 * transaction (as the checkout's line items): what the row holds is read first, then
 * - a subscription not held yet is fetched from Stripe, with its customer (the contact);
 * - a subscription event newer than what the row holds is applied as it comes;
 * - one no newer (late, replayed, or of the same second) makes the webhook fetch the subscription,
 *   and the fetched object is applied instead: the state never follows the events' order;
 * - a paid invoice not yet recorded has its charge read, so a refund made before the invoice
 *   reached us is applied with it.
 * Any Stripe failure throws before anything is written: the event stays in the inbox and is retried.
 */
export async function prepareBillingEvent(
  event: Stripe.Event,
  connection: PayprocConnection,
  stripe: Stripe,
): Promise<Process> {
  const workspaceId = connection.workspace_id;
  const created = new Date(event.created * 1000);
  const account = onAccount(event.account);
  const object = event.data.object as unknown;
  let subscriptionId: string | null = null;
  let carried: Stripe.Subscription | null = null;
  let invoice: Stripe.Invoice | null = null;
  if (event.type.startsWith("customer.subscription.")) {
    carried = object as Stripe.Subscription;
    subscriptionId = carried.id;
  } else if (event.type.startsWith("invoice.")) {
    invoice = object as Stripe.Invoice;
    subscriptionId = subscriptionIdOfInvoice(invoice);
  } else {
    subscriptionId = idOf((object as Stripe.Checkout.Session).subscription as string | { id: string } | null);
  }
  if (!subscriptionId) return async () => ({ ignored: "not a subscription's" });

  const paid = event.type === "invoice.paid" && invoice && invoice.amount_paid > 0 ? invoice : null;
  const intentId = paid ? paymentIntentOfInvoice(paid) : null;
  const [read] = await withServiceStatement(
    (db) => db<[{ held: Held | null; recorded: boolean }]>`
      select
        (select row_to_json(s) from (
           select workspace_id, synced_through from public.subscriptions
           where payproc_subscription_id = ${subscriptionId}) s) as held,
        exists (select from public.transactions
                where workspace_id = ${workspaceId} and payproc_payment_intent_id = ${intentId}) as recorded`,
  );
  const held = read.held;
  if (held && held.workspace_id !== workspaceId) {
    log.warn({ eventId: event.id, subscriptionId }, "payproc event names another workspace's subscription");
    return async () => ({ refused: "the subscription is another account's" });
  }

  const fetch = (expandCustomer: boolean) =>
    withStripeRetry(() =>
      stripe.subscriptions.retrieve(subscriptionId, expandCustomer ? { expand: ["customer"] } : {}, account),
    );
  const heldThrough = held ? new Date(held.synced_through) : null;
  let source: Omit<ApplySubscriptionInput, "workspaceId"> | null = null;
  if (!heldThrough) {
    const sub = await fetch(true);
    source = {
      state: subscriptionState(sub),
      customer: customerOf(sub.customer),
      syncedThrough: created,
      fetched: true,
    };
  } else if (carried && created > heldThrough) {
    source = { state: subscriptionState(carried), customer: null, syncedThrough: created, fetched: false };
  } else if (carried) {
    const sub = await fetch(false);
    source = { state: subscriptionState(sub), customer: null, syncedThrough: heldThrough, fetched: true };
  }

  let chargeRefundedCents = 0;
  if (paid && intentId && !read.recorded) {
    const intent = await withStripeRetry(() =>
      stripe.paymentIntents.retrieve(intentId, { expand: ["latest_charge"] }, account),
    );
    const charge = intent.latest_charge;
    chargeRefundedCents = charge && typeof charge !== "string" ? charge.amount_refunded : 0;
  }

  return async (db) => {
    const result: Record<string, unknown> = {};
    if (source) {
      const applied = await applySubscription(db, { workspaceId, ...source });
      result.subscription = applied.status;
      if (applied.status === "parked" || applied.status === "foreign") return result;
    }
    if (event.type === "invoice.payment_failed" && invoice)
      await emitPaymentFailed(db, { workspaceId, payprocSubscriptionId: subscriptionId, invoice });
    if (paid && intentId) {
      const line = paid.lines?.data?.[0];
      const recorded = await recordPaidInvoice(db, {
        workspaceId,
        payprocSubscriptionId: subscriptionId,
        invoiceId: paid.id,
        paymentIntentId: intentId,
        payprocProductId: idOf(
          (line?.pricing?.price_details?.product ?? null) as string | { id: string } | null,
        ),
        amountCents: paid.amount_paid,
        currency: paid.currency,
        paidAt: new Date((paid.status_transitions?.paid_at ?? event.created) * 1000),
        chargeRefundedCents,
      });
      result.invoice = recorded.status;
    }
    return result;
  };
}
