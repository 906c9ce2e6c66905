import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { SignedEvent } from "../fakes/stripe";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace, unique } from "../helpers/factories";
import { connectPayproc, setupStripeFake } from "../helpers/payments";
import { addPlan, deliverAll, eventsSince, recurringRowsOf } from "../helpers/recurring";

const db = setupTestDatabase();
const stripe = setupStripeFake();
const DAY = 86_400;
const RENEWALS = 3;

describe(`DESIGN section 9 "Recurring": the state is Stripe's newest object, never the events' order`, () => {
  test("a subscription's whole life replayed shuffled, with duplicates, leaves the same rows as the ordered log", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id);
    const plan = await addPlan(db.sql, stripe.fake, conn, { amount: 1500 });
    const billing = stripe.fake.billing;

    // create, renew ×N, fail, recover, cancel (at period end), refund a renewal
    const mark = billing.events.length;
    const { subscription } = billing.createSubscription({
      account: conn.account,
      email: `${unique("life")}@example.test`,
      name: "Grace Hopper",
      priceId: plan.priceId,
      checkout: true,
    });
    const id = subscription.id as string;
    for (let i = 0; i < RENEWALS; i++) billing.advance(31 * DAY);
    billing.failNextPayment(id);
    billing.advance(30 * DAY);
    billing.advance(2 * DAY);
    billing.recover(id);
    billing.cancel(id, { atPeriodEnd: true });
    billing.advance(31 * DAY);
    const renewal = billing.invoicesOf(id).filter((i) => i.billing_reason === "subscription_cycle")[1];
    billing.refundInvoice(renewal.id as string);
    const log = eventsSince(stripe.fake, mark);
    expect(log.map((e) => e.event.type)).toContain("invoice.payment_failed");

    const reset = async () => {
      await db.sql`delete from webhook_inbox where event_id in ${db.sql(log.map((e) => e.event.id as string))}`;
      await db.sql`delete from subscriptions where workspace_id = ${ws.id}`;
      await db.sql`delete from transactions where workspace_id = ${ws.id}`;
      await db.sql`delete from products where workspace_id = ${ws.id}`;
      await db.sql`delete from tasks where workspace_id = ${ws.id}`;
      await db.sql`delete from contacts where workspace_id = ${ws.id}`;
    };

    await deliverAll(log);
    const ordered = await recurringRowsOf(db.sql, ws.id, id);
    // what the ordered log leaves: the life's end, whatever the order
    expect(ordered.subscriptions).toHaveLength(1);
    expect(ordered.subscriptions[0]).toMatchObject({ status: "canceled", cancel_at_period_end: true });
    expect(ordered.memberships.map((m) => m.status)).toEqual(["cancelled"]);
    // the first invoice, N renewals and the recovered one; one of them refunded
    expect(ordered.transactions).toHaveLength(RENEWALS + 2);
    expect(ordered.transactions.filter((t) => t.status === "refunded")).toHaveLength(1);
    expect(ordered.contacts).toHaveLength(1);

    const indices = log.map((_, i) => i);
    const deliveries = fc.array(fc.nat({ max: log.length - 1 }), { maxLength: 8 }).chain((twice) => {
      const all = [...indices, ...twice];
      return fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length });
    });
    await fc.assert(
      fc.asyncProperty(deliveries, async (order) => {
        await reset();
        await deliverAll(order.map((i): SignedEvent => log[i]));
        expect(await recurringRowsOf(db.sql, ws.id, id)).toEqual(ordered);
      }),
      { numRuns: 12, seed: Number(process.env.RECURRING_REPLAY_SEED ?? 20261129) },
    );
  }, 600_000);
});
