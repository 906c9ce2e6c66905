/**
 * Stripe objects as the fake serves them: copies of Stripe's own published examples
 * (stripe-objects.json, from /work/shared/fixtures/stripe/objects.json) with the ids,
 * amounts and fields a test needs changed.
 */
import { randomBytes } from "node:crypto";
import fixtures from "./stripe-objects.json";

type Obj = Record<string, unknown>;

const clone = <T>(value: T): T => structuredClone(value);

export function stripeId(prefix: string, length = 24): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return `${prefix}_${out}`;
}

export interface FakeAddress {
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  state?: string | null;
  postal_code?: string | null;
  country?: string | null;
}

export interface FakeLineItemInput {
  productId?: string;
  name: string;
  /** cents, after discounts and tax: what the buyer paid for this line */
  amountTotal: number;
  currency?: string;
  quantity?: number;
}

export interface FakeCheckoutInput {
  id?: string;
  account?: string | null;
  livemode?: boolean;
  /** undefined: a new intent id; null: a free or fully discounted order */
  paymentIntent?: string | null;
  email?: string | null;
  name?: string | null;
  phone?: string | null;
  address?: FakeAddress | null;
  items: FakeLineItemInput[];
  created?: number;
}

export function buildCheckoutSession(input: FakeCheckoutInput, items: Obj[]): Obj {
  const session = clone(fixtures["checkout.session"]) as Obj;
  const total = items.reduce((sum, item) => sum + Number(item.amount_total), 0);
  const paymentIntent =
    input.paymentIntent === undefined ? (total > 0 ? stripeId("pi") : null) : input.paymentIntent;
  const address = { line1: null, line2: null, city: null, state: null, postal_code: null, country: null };
  Object.assign(session, {
    id: input.id ?? stripeId(input.livemode ? "cs_live" : "cs_test", 40),
    created: input.created ?? Math.floor(Date.now() / 1000),
    livemode: input.livemode ?? false,
    payment_intent: paymentIntent,
    payment_status: total > 0 ? "paid" : "no_payment_required",
    status: "complete",
    amount_subtotal: total,
    amount_total: total,
    currency: (items[0]?.currency as string) ?? "usd",
    customer_email: input.email ?? null,
    customer_details: {
      ...(session.customer_details as Obj),
      email: input.email ?? null,
      name: input.name ?? null,
      phone: input.phone ?? null,
      address: input.address ? { ...address, ...input.address } : address,
    },
    url: null,
  });
  return session;
}

export function buildLineItem(input: FakeLineItemInput, livemode: boolean): { item: Obj; product: Obj } {
  const product = clone(fixtures.product) as Obj;
  Object.assign(product, { id: input.productId ?? stripeId("prod", 14), name: input.name, livemode });
  const item = clone(fixtures.item) as Obj;
  const quantity = input.quantity ?? 1;
  const currency = (input.currency ?? "usd").toLowerCase();
  const price = item.price as Obj;
  Object.assign(price, {
    id: stripeId("price"),
    product: product.id,
    currency,
    type: "one_time",
    recurring: null,
    unit_amount: Math.round(input.amountTotal / quantity),
    unit_amount_decimal: String(Math.round(input.amountTotal / quantity)),
    livemode,
  });
  Object.assign(item, {
    id: stripeId("li"),
    description: input.name,
    currency,
    quantity,
    amount_subtotal: input.amountTotal,
    amount_total: input.amountTotal,
    amount_discount: 0,
    amount_tax: 0,
  });
  return { item, product };
}

export function buildCharge(input: {
  paymentIntent: string | null;
  amount: number;
  currency?: string;
  livemode?: boolean;
}): Obj {
  const charge = clone(fixtures.charge) as Obj;
  const id = stripeId("ch");
  Object.assign(charge, {
    id,
    amount: input.amount,
    amount_captured: input.amount,
    amount_refunded: 0,
    captured: true,
    refunded: false,
    currency: (input.currency ?? "usd").toLowerCase(),
    livemode: input.livemode ?? false,
    payment_intent: input.paymentIntent,
    created: Math.floor(Date.now() / 1000),
    refunds: { object: "list", data: [], has_more: false, url: `/v1/charges/${id}/refunds` },
  });
  return charge;
}

export function buildRefund(charge: Obj, amount: number, created: number): Obj {
  const refund = clone(fixtures.refund) as Obj;
  Object.assign(refund, {
    id: stripeId("re"),
    amount,
    charge: charge.id,
    payment_intent: charge.payment_intent,
    currency: charge.currency,
    created,
    status: "succeeded",
  });
  return refund;
}

export function buildPaymentIntent(id: string, amount: number, latestCharge: string | null): Obj {
  const intent = clone(fixtures.payment_intent) as Obj;
  Object.assign(intent, {
    id,
    amount,
    amount_received: amount,
    latest_charge: latestCharge,
    status: "succeeded",
    client_secret: null,
    last_payment_error: null,
    canceled_at: null,
  });
  return intent;
}

export function buildEvent(
  type: string,
  object: Obj,
  opts: { account?: string | null; livemode?: boolean; id?: string; created?: number },
): Obj {
  const event = clone(fixtures.event) as Obj;
  Object.assign(event, {
    id: opts.id ?? stripeId("evt"),
    type,
    created: opts.created ?? Math.floor(Date.now() / 1000),
    livemode: opts.livemode ?? Boolean(object.livemode),
    api_version: "2025-01-27.acacia",
    data: { object },
    pending_webhooks: 1,
  });
  if (opts.account) event.account = opts.account;
  return event;
}
