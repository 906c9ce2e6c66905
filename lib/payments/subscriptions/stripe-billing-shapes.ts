import type Stripe from "stripe";
import { idOf } from "../checkout-from-stripe";

/**
 * What the webhook reads from Stripe Billing's objects, for the API version of the installed SDK:
 * a subscription's period is on its items (the first item's is the subscription's), an invoice
 * names its subscription under parent.subscription_details and its payment intent under payments.
 */
export interface SubscriptionState {
  payprocSubscriptionId: string;
  payprocCustomerId: string;
  priceId: string | null;
  productId: string | null;
  status: Stripe.Subscription.Status;
  startedAt: Date;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  endedAt: Date | null;
  cancellationReason: string | null;
  latestInvoiceId: string | null;
}

const at = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

export function subscriptionState(sub: Stripe.Subscription): SubscriptionState {
  const item = sub.items?.data?.[0];
  const legacy = sub as unknown as { current_period_start?: number; current_period_end?: number };
  return {
    payprocSubscriptionId: sub.id,
    payprocCustomerId: idOf(sub.customer as string | { id: string }) ?? "",
    priceId: item?.price?.id ?? null,
    productId: idOf(item?.price?.product as string | { id: string } | null | undefined),
    status: sub.status,
    startedAt: at(sub.start_date ?? sub.created)!,
    currentPeriodStart: at(item?.current_period_start ?? legacy.current_period_start),
    currentPeriodEnd: at(item?.current_period_end ?? legacy.current_period_end),
    cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end),
    canceledAt: at(sub.canceled_at),
    endedAt: at(sub.ended_at),
    cancellationReason: sub.cancellation_details?.reason ?? null,
    latestInvoiceId: idOf(sub.latest_invoice as string | { id: string } | null),
  };
}

/** The subscription an invoice bills (null for an invoice outside subscriptions). */
export function subscriptionIdOfInvoice(invoice: Stripe.Invoice): string | null {
  const parent = invoice.parent?.subscription_details?.subscription;
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  return idOf((parent ?? legacy ?? null) as string | { id: string } | null);
}

/** The payment intent that paid an invoice (the default payment, else the first). */
export function paymentIntentOfInvoice(invoice: Stripe.Invoice): string | null {
  const payments = invoice.payments?.data ?? [];
  const paid = payments.find((p) => p.is_default) ?? payments[0];
  const legacy = (invoice as unknown as { payment_intent?: string | { id: string } | null }).payment_intent;
  return idOf((paid?.payment?.payment_intent ?? legacy ?? null) as string | { id: string } | null);
}

/** A Stripe customer's email and name, when the reference is expanded and not deleted. */
export function customerOf(
  ref: Stripe.Subscription["customer"] | null | undefined,
): { email: string | null; name: string | null } | null {
  if (!ref || typeof ref === "string" || ref.deleted) return null;
  return { email: ref.email ?? null, name: ref.name ?? null };
}
