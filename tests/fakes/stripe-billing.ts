/**
 * Stripe Billing in the fake: customers, recurring prices, subscriptions and their invoices on a
 * connected account, and a clock the test advances (Stripe's test clocks). Every change is recorded
 * as the signed events Stripe would send (customer.subscription.*, invoice.paid,
 * invoice.payment_failed, checkout.session.completed in subscription mode, charge.refunded), stamped
 * with the clock's time. `deliveries()` hands them back as Stripe delivers them: late, twice and out
 * of order.
 *
 * Shapes follow Stripe's API version of the installed SDK: a subscription's period lives on its
 * items, an invoice names its subscription under parent.subscription_details and its payment
 * intent under payments (the price and customer start as copies of the published fixtures).
 */
import fixtures from "./stripe-objects.json";
import { stripeId } from "./stripe-objects";
import type { SignedEvent } from "./stripe";

type Obj = Record<string, unknown>;

const DAY = 86_400;
const INTERVAL_SECONDS = { day: DAY, week: 7 * DAY, month: 30 * DAY, year: 365 * DAY } as const;
export type Interval = keyof typeof INTERVAL_SECONDS;

export interface BillingDeps {
  addCharge(input: {
    account?: string | null;
    paymentIntent: string;
    amount: number;
    currency?: string;
  }): Obj;
  refund(chargeId: string, amount: number, created?: number): { charge: Obj; refund: Obj };
  chargeIdOf(paymentIntentId: string): string | null;
  sign(
    type: string,
    object: Obj,
    opts: { account?: string | null; livemode?: boolean; created?: number },
  ): SignedEvent;
}

interface StoredSubscription {
  account: string | null;
  sub: Obj;
  interval: Interval;
  amount: number;
  currency: string;
  /** the next renewal's payment fails (until recovered) */
  failNext: boolean;
}

export interface FakeSubscriptionInput {
  account?: string | null;
  email: string;
  name?: string | null;
  /** a price of the account (made when missing) */
  priceId?: string;
  productId?: string;
  amount?: number;
  currency?: string;
  interval?: Interval;
  /** through a Checkout Session in subscription mode (a checkout.session.completed event too) */
  checkout?: boolean;
}

export interface FakeBilling {
  /** the fake's clock, in Unix seconds */
  now(): number;
  /** moves the clock on and renews (or fails to renew, or ends) every subscription that falls due */
  advance(seconds: number): void;
  price(input: {
    account?: string | null;
    id?: string;
    product?: string;
    amount: number;
    currency?: string;
    interval?: Interval;
  }): Obj;
  createSubscription(input: FakeSubscriptionInput): { subscription: Obj; invoice: Obj; customer: Obj };
  /** the next renewal of the subscription is declined */
  failNextPayment(subscriptionId: string): void;
  /** the customer pays the open invoice (a new card): active again */
  recover(subscriptionId: string): Obj;
  cancel(
    subscriptionId: string,
    opts?: { atPeriodEnd?: boolean; reason?: "cancellation_requested" | "payment_failed" },
  ): Obj;
  /** refunds part or all of a paid invoice's charge (from Stripe's dashboard): charge.refunded */
  refundInvoice(invoiceId: string, amount?: number): Obj;
  subscription(id: string): Obj | undefined;
  invoicesOf(subscriptionId: string): Obj[];
  /** every event sent so far, in the order Stripe created them */
  events: SignedEvent[];
  /**
   * The events as Stripe delivers them: a seeded shuffle with some sent twice. The same seed gives
   * the same order.
   */
  deliveries(seed: number, opts?: { duplicates?: number }): SignedEvent[];
  /** the customer portal sessions created (POST /v1/billing_portal/sessions), with their account */
  portalSessions: { account: string | null; obj: Obj }[];
  /** the API's answers (undefined: not a billing path); a POST's form body as `query` */
  route(
    path: string,
    query: URLSearchParams,
    account: string | null,
  ): { status: number; body: unknown } | undefined;
}

const clone = <T>(value: T): T => structuredClone(value);

export function createBilling(deps: BillingDeps): FakeBilling {
  let clock = Math.floor(Date.now() / 1000);
  const customers = new Map<string, { account: string | null; obj: Obj }>();
  const prices = new Map<string, { account: string | null; obj: Obj }>();
  const subscriptions = new Map<string, StoredSubscription>();
  const invoices = new Map<string, { account: string | null; obj: Obj }>();
  const sessions = new Map<string, { account: string | null; obj: Obj }>();
  const portalSessions: { account: string | null; obj: Obj }[] = [];
  const events: SignedEvent[] = [];

  const emit = (type: string, object: Obj, account: string | null) => {
    events.push(deps.sign(type, clone(object), { account, livemode: false, created: clock }));
  };

  const item = (s: StoredSubscription) => (s.sub.items as { data: Obj[] }).data[0] as Obj;

  function price(input: Parameters<FakeBilling["price"]>[0]): Obj {
    const existing = input.id ? prices.get(input.id) : undefined;
    if (existing) return existing.obj;
    const obj = clone(fixtures.price) as Obj;
    Object.assign(obj, {
      id: input.id ?? stripeId("price"),
      product: input.product ?? stripeId("prod", 14),
      unit_amount: input.amount,
      unit_amount_decimal: String(input.amount),
      currency: (input.currency ?? "usd").toLowerCase(),
      created: clock,
      type: "recurring",
      recurring: { ...(obj.recurring as Obj), interval: input.interval ?? "month", interval_count: 1 },
      transform_quantity: null,
    });
    prices.set(obj.id as string, { account: input.account ?? null, obj });
    return obj;
  }

  /** An invoice for the subscription's current period: paid (a charge on a new intent) or open. */
  function invoice(
    s: StoredSubscription,
    reason: "subscription_create" | "subscription_cycle",
    paid: boolean,
  ): Obj {
    const it = item(s);
    const id = stripeId("in");
    const paymentIntent = stripeId("pi");
    if (paid) deps.addCharge({ account: s.account, paymentIntent, amount: s.amount, currency: s.currency });
    const obj: Obj = {
      id,
      object: "invoice",
      customer: s.sub.customer,
      currency: s.currency,
      status: paid ? "paid" : "open",
      amount_due: s.amount,
      amount_paid: paid ? s.amount : 0,
      amount_remaining: paid ? 0 : s.amount,
      attempt_count: 1,
      attempted: true,
      billing_reason: reason,
      collection_method: "charge_automatically",
      created: clock,
      livemode: false,
      metadata: {},
      period_start: it.current_period_start,
      period_end: it.current_period_end,
      subtotal: s.amount,
      total: s.amount,
      lines: {
        object: "list",
        has_more: false,
        url: `/v1/invoices/${id}/lines`,
        data: [
          {
            id: stripeId("il"),
            object: "line_item",
            amount: s.amount,
            currency: s.currency,
            description: "1 × membership",
            period: { start: it.current_period_start, end: it.current_period_end },
            pricing: {
              type: "price_details",
              price_details: { price: (it.price as Obj).id, product: (it.price as Obj).product },
            },
            quantity: 1,
          },
        ],
      },
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { subscription: s.sub.id, metadata: {} },
      },
      payments: {
        object: "list",
        has_more: false,
        url: "/v1/invoice_payments",
        data: [
          {
            id: stripeId("inpay"),
            object: "invoice_payment",
            amount_paid: paid ? s.amount : null,
            amount_requested: s.amount,
            created: clock,
            currency: s.currency,
            invoice: id,
            is_default: true,
            livemode: false,
            payment: { type: "payment_intent", payment_intent: paymentIntent },
            status: paid ? "paid" : "open",
            status_transitions: { canceled_at: null, paid_at: paid ? clock : null },
          },
        ],
      },
      status_transitions: {
        finalized_at: clock,
        paid_at: paid ? clock : null,
        marked_uncollectible_at: null,
        voided_at: null,
      },
    };
    invoices.set(id, { account: s.account, obj });
    s.sub.latest_invoice = id;
    return obj;
  }

  function pay(s: StoredSubscription, inv: Obj) {
    const payment = (inv.payments as { data: Obj[] }).data[0] as Obj;
    const intent = (payment.payment as Obj).payment_intent as string;
    deps.addCharge({ account: s.account, paymentIntent: intent, amount: s.amount, currency: s.currency });
    Object.assign(inv, {
      status: "paid",
      amount_paid: s.amount,
      amount_remaining: 0,
      attempt_count: Number(inv.attempt_count) + 1,
      status_transitions: { ...(inv.status_transitions as Obj), paid_at: clock },
    });
    Object.assign(payment, {
      status: "paid",
      amount_paid: s.amount,
      status_transitions: { canceled_at: null, paid_at: clock },
    });
  }

  function end(s: StoredSubscription, reason: "cancellation_requested" | "payment_failed") {
    Object.assign(s.sub, {
      status: "canceled",
      canceled_at: s.sub.canceled_at ?? clock,
      ended_at: clock,
      cancellation_details: { comment: null, feedback: null, reason },
    });
    emit("customer.subscription.deleted", s.sub, s.account);
  }

  function renew(s: StoredSubscription) {
    const it = item(s);
    if (s.sub.cancel_at_period_end) return end(s, "cancellation_requested");
    if (s.sub.status === "past_due") return end(s, "payment_failed");
    const length = INTERVAL_SECONDS[s.interval];
    it.current_period_start = it.current_period_end;
    it.current_period_end = Number(it.current_period_end) + length;
    const inv = invoice(s, "subscription_cycle", !s.failNext);
    if (s.failNext) {
      s.sub.status = "past_due";
      emit("invoice.payment_failed", inv, s.account);
    } else {
      emit("invoice.paid", inv, s.account);
    }
    emit("customer.subscription.updated", s.sub, s.account);
  }

  const get = (id: string) => {
    const s = subscriptions.get(id);
    if (!s) throw new Error(`fake: no subscription ${id}`);
    return s;
  };

  const billing: FakeBilling = {
    events,
    now: () => clock,
    advance(seconds) {
      const target = clock + seconds;
      for (;;) {
        // the earliest due subscription first, so events come in the clock's order
        const due = [...subscriptions.values()]
          .filter((s) => s.sub.status !== "canceled" && Number(item(s).current_period_end) <= target)
          .sort((a, b) => Number(item(a).current_period_end) - Number(item(b).current_period_end))[0];
        if (!due) break;
        clock = Math.max(clock, Number(item(due).current_period_end));
        renew(due);
      }
      clock = target;
    },
    price,
    createSubscription(input) {
      const account = input.account ?? null;
      const amount = input.amount ?? 2000;
      const interval = input.interval ?? "month";
      const currency = (input.currency ?? "usd").toLowerCase();
      const pr = price({ account, id: input.priceId, product: input.productId, amount, currency, interval });
      const customer = clone(fixtures.customer) as Obj;
      Object.assign(customer, {
        id: stripeId("cus", 14),
        email: input.email,
        name: input.name ?? null,
        created: clock,
        discount: null,
      });
      customers.set(customer.id as string, { account, obj: customer });
      const id = stripeId("sub");
      const end = clock + INTERVAL_SECONDS[interval];
      const sub: Obj = {
        id,
        object: "subscription",
        customer: customer.id,
        status: "active",
        currency,
        created: clock,
        start_date: clock,
        billing_cycle_anchor: clock,
        cancel_at: null,
        cancel_at_period_end: false,
        canceled_at: null,
        ended_at: null,
        cancellation_details: { comment: null, feedback: null, reason: null },
        collection_method: "charge_automatically",
        latest_invoice: null,
        livemode: false,
        metadata: {},
        items: {
          object: "list",
          has_more: false,
          url: `/v1/subscription_items?subscription=${id}`,
          data: [
            {
              id: stripeId("si", 14),
              object: "subscription_item",
              created: clock,
              current_period_start: clock,
              current_period_end: end,
              metadata: {},
              price: pr,
              quantity: 1,
              subscription: id,
            },
          ],
        },
      };
      const stored: StoredSubscription = {
        account,
        sub,
        interval,
        amount: pr.unit_amount as number,
        currency,
        failNext: false,
      };
      subscriptions.set(id, stored);
      const inv = invoice(stored, "subscription_create", true);
      if (input.checkout) {
        const session: Obj = {
          ...(clone(fixtures["checkout.session"]) as Obj),
          id: stripeId("cs_test", 40),
          object: "checkout.session",
          mode: "subscription",
          status: "complete",
          payment_status: "paid",
          payment_intent: null,
          subscription: id,
          invoice: inv.id,
          customer: customer.id,
          customer_email: input.email,
          customer_details: { email: input.email, name: input.name ?? null, phone: null, address: null },
          amount_total: stored.amount,
          amount_subtotal: stored.amount,
          currency,
          created: clock,
          livemode: false,
          url: null,
        };
        sessions.set(session.id as string, { account, obj: session });
        emit("checkout.session.completed", session, account);
      }
      emit("customer.subscription.created", sub, account);
      emit("invoice.paid", inv, account);
      return { subscription: clone(sub), invoice: clone(inv), customer: clone(customer) };
    },
    failNextPayment(id) {
      get(id).failNext = true;
    },
    recover(id) {
      const s = get(id);
      s.failNext = false;
      const open = invoices.get(s.sub.latest_invoice as string)?.obj;
      if (!open || open.status !== "open") throw new Error("fake: nothing to recover");
      pay(s, open);
      s.sub.status = "active";
      emit("invoice.paid", open, s.account);
      emit("customer.subscription.updated", s.sub, s.account);
      return clone(s.sub);
    },
    cancel(id, opts = {}) {
      const s = get(id);
      if (opts.atPeriodEnd) {
        Object.assign(s.sub, {
          cancel_at_period_end: true,
          cancel_at: item(s).current_period_end,
          canceled_at: clock,
          cancellation_details: { comment: null, feedback: null, reason: "cancellation_requested" },
        });
        emit("customer.subscription.updated", s.sub, s.account);
      } else {
        end(s, opts.reason ?? "cancellation_requested");
      }
      return clone(s.sub);
    },
    refundInvoice(invoiceId, amount) {
      const stored = invoices.get(invoiceId);
      if (!stored) throw new Error(`fake: no invoice ${invoiceId}`);
      const payment = (stored.obj.payments as { data: Obj[] }).data[0] as Obj;
      const chargeId = deps.chargeIdOf((payment.payment as Obj).payment_intent as string);
      if (!chargeId) throw new Error("fake: the invoice was not paid");
      const { charge } = deps.refund(chargeId, amount ?? Number(stored.obj.amount_paid), clock);
      emit("charge.refunded", charge, stored.account);
      return charge;
    },
    subscription: (id) => (subscriptions.has(id) ? clone(get(id).sub) : undefined),
    invoicesOf: (id) =>
      [...invoices.values()]
        .map((i) => i.obj)
        .filter((i) => ((i.parent as Obj).subscription_details as Obj).subscription === id)
        .map(clone),
    deliveries(seed, opts = {}) {
      const random = mulberry32(seed);
      const out = [...events];
      const duplicates = opts.duplicates ?? Math.ceil(events.length / 3);
      for (let i = 0; i < duplicates && events.length > 0; i++)
        out.push(events[Math.floor(random() * events.length)]);
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
    portalSessions,
    route(path, query, account) {
      const expand = new Set([...query.entries()].filter(([k]) => k.startsWith("expand")).map(([, v]) => v));
      const missing = (what: string) => ({
        status: 404,
        body: {
          error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}` },
        },
      });
      if (path === "/v1/billing_portal/sessions") {
        // Stripe's customer portal: a session for a customer of the account the call is made on
        const customer = query.get("customer") ?? "";
        const c = customers.get(customer);
        if (!c || c.account !== account) return missing(`customer: '${customer}'`);
        const id = stripeId("bps");
        const obj: Obj = {
          id,
          object: "billing_portal.session",
          customer,
          return_url: query.get("return_url"),
          livemode: false,
          created: clock,
          url: `https://billing.stripe.com/p/session/test_${id}`,
        };
        portalSessions.push({ account, obj });
        return { status: 200, body: clone(obj) };
      }
      let m: RegExpExecArray | null;
      if ((m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
        const s = subscriptions.get(m[1]);
        if (!s || s.account !== account) return missing("subscription");
        const body = clone(s.sub);
        if (expand.has("customer")) body.customer = clone(customers.get(body.customer as string)?.obj);
        return { status: 200, body };
      }
      if ((m = /^\/v1\/invoices\/([^/]+)$/.exec(path))) {
        const i = invoices.get(m[1]);
        return i && i.account === account ? { status: 200, body: clone(i.obj) } : missing("invoice");
      }
      if ((m = /^\/v1\/customers\/([^/]+)$/.exec(path))) {
        const c = customers.get(m[1]);
        return c && c.account === account ? { status: 200, body: clone(c.obj) } : missing("customer");
      }
      if ((m = /^\/v1\/prices\/([^/]+)$/.exec(path))) {
        const p = prices.get(m[1]);
        return p && p.account === account ? { status: 200, body: clone(p.obj) } : missing("price");
      }
      return undefined;
    },
  };
  return billing;
}

/** A small seeded generator (mulberry32), so a failing shuffle can be replayed from its seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
