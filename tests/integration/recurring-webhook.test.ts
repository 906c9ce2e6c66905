import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { getContactTransactions } from "@/lib/payments/get-contact-transactions";
import { createWebhookEndpoint } from "@/lib/webhooks/outbound/create-webhook-endpoint";
import { webhookPayloadSchema } from "@/lib/webhooks/outbound/payloads";
import { webhookEndpointSchema } from "@/lib/webhooks/outbound/schemas";
import { GET as membershipsRoute } from "@/app/api/v1/contacts/[id]/memberships/route";
import { GET as subscriptionsRoute } from "@/app/api/v1/subscriptions/route";
import { apiKey, call } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace, unique } from "../helpers/factories";
import { connectPayproc, deliver, setupStripeFake } from "../helpers/payments";
import { addPlan, deliverAll, eventsSince } from "../helpers/recurring";

const db = setupTestDatabase();
const stripe = setupStripeFake();
const DAY = 86_400;

const at = (seconds: unknown) => new Date(Number(seconds) * 1000);

async function subscriptionRow(id: string) {
  const [row] = await db.sql`
    select s.*, m.status as membership, m.expires_at, m.member_since, m.contact_id as member_contact_id
    from subscriptions s left join memberships m on m.subscription_id = s.id
    where s.payproc_subscription_id = ${id}`;
  return row;
}

async function setup() {
  const ws = await createWorkspace(db.sql);
  const conn = await connectPayproc(db.sql, ws.id);
  const plan = await addPlan(db.sql, stripe.fake, conn);
  return { ws, conn, plan };
}

describe(`DESIGN section 9 "Recurring": Stripe Billing's events through the payment webhook's inbox`, () => {
  test("a checkout in subscription mode gives a subscription as Stripe names it, an active membership and the first invoice in the contact's feed", async () => {
    const { ws, conn, plan } = await setup();
    const mark = stripe.fake.billing.events.length;
    const email = `${unique("member")}@example.test`;
    const { subscription, invoice } = stripe.fake.billing.createSubscription({
      account: conn.account,
      email,
      name: "Ada Lovelace",
      priceId: plan.priceId,
      checkout: true,
    });
    const events = eventsSince(stripe.fake, mark);
    expect(events.map((e) => e.event.type)).toEqual([
      "checkout.session.completed",
      "customer.subscription.created",
      "invoice.paid",
    ]);
    await deliverAll(events);

    const row = await subscriptionRow(subscription.id as string);
    const item = (subscription.items as { data: Record<string, unknown>[] }).data[0];
    expect(row).toMatchObject({
      workspace_id: ws.id,
      plan_id: plan.id,
      status: "active",
      cancel_at_period_end: false,
      current_period_end: at(item.current_period_end),
      membership: "active",
      expires_at: at(item.current_period_end),
      member_since: at(subscription.start_date),
    });
    const [contact] =
      await db.sql`select id, email, source, first_name from contacts where id = ${row.contact_id}`;
    expect(contact).toMatchObject({ email, source: "payproc", first_name: "Ada" });
    expect(row.member_contact_id).toBe(contact.id);

    // one transaction per paid invoice, not one more for the checkout session
    const txs = await db.sql`select * from transactions where workspace_id = ${ws.id}`;
    expect(txs).toHaveLength(1);
    expect(txs[0]).toMatchObject({
      contact_id: contact.id,
      amount_paid: "20.00",
      status: "succeeded",
      external_payproc_transaction_id: `${invoice.id as string}_${plan.productId}`,
    });
    const feed = await withUser(ws.owner.claims, (tx) =>
      getContactTransactions(tx, { workspaceId: ws.id, contactId: contact.id }),
    );
    expect(feed.map((f) => [f.kind, f.description, f.amountCents, f.status])).toEqual([
      ["transaction", "Monthly membership", 2000, "succeeded"],
    ]);
  });

  test("renewals extend expires_at, a failed renewal is grace, the recovery active again, and a cancellation at period end is cancelled when the period ends", async () => {
    const { ws, conn, plan } = await setup();
    const billing = stripe.fake.billing;
    let mark = billing.events.length;
    const { subscription } = billing.createSubscription({
      account: conn.account,
      email: `${unique("m")}@example.test`,
      priceId: plan.priceId,
    });
    const id = subscription.id as string;
    billing.advance(31 * DAY);
    billing.advance(30 * DAY);
    await deliverAll(eventsSince(stripe.fake, mark));
    let row = await subscriptionRow(id);
    expect(row.status).toBe("active");
    expect(row.expires_at).toEqual(row.current_period_end);
    expect(row.current_period_end.getTime() - row.started_at.getTime()).toBe(90 * DAY * 1000);
    expect(
      (await db.sql`select count(*)::int as n from transactions where workspace_id = ${ws.id}`)[0].n,
    ).toBe(3);

    mark = billing.events.length;
    billing.failNextPayment(id);
    billing.advance(30 * DAY);
    await deliverAll(eventsSince(stripe.fake, mark));
    row = await subscriptionRow(id);
    expect([row.status, row.membership]).toEqual(["past_due", "grace"]);
    expect(
      (await db.sql`select count(*)::int as n from transactions where workspace_id = ${ws.id}`)[0].n,
    ).toBe(3);

    mark = billing.events.length;
    billing.recover(id);
    await deliverAll(eventsSince(stripe.fake, mark));
    row = await subscriptionRow(id);
    expect([row.status, row.membership]).toEqual(["active", "active"]);
    expect(
      (await db.sql`select count(*)::int as n from transactions where workspace_id = ${ws.id}`)[0].n,
    ).toBe(4);

    mark = billing.events.length;
    billing.cancel(id, { atPeriodEnd: true });
    await deliverAll(eventsSince(stripe.fake, mark));
    row = await subscriptionRow(id);
    expect([row.status, row.cancel_at_period_end, row.membership]).toEqual(["active", true, "active"]);

    mark = billing.events.length;
    billing.advance(31 * DAY);
    await deliverAll(eventsSince(stripe.fake, mark));
    row = await subscriptionRow(id);
    expect([row.status, row.membership, row.cancellation_reason]).toEqual([
      "canceled",
      "cancelled",
      "cancellation_requested",
    ]);
    expect(row.expires_at).toEqual(row.ended_at);
  });

  test("a subscription Stripe ends for non-payment is a lapsed membership", async () => {
    const { conn, plan } = await setup();
    const billing = stripe.fake.billing;
    const mark = billing.events.length;
    const { subscription } = billing.createSubscription({
      account: conn.account,
      email: `${unique("m")}@example.test`,
      priceId: plan.priceId,
    });
    billing.failNextPayment(subscription.id as string);
    billing.advance(31 * DAY); // fails: past_due
    billing.advance(30 * DAY); // still unpaid at the next period: Stripe cancels it
    await deliverAll(eventsSince(stripe.fake, mark));
    const row = await subscriptionRow(subscription.id as string);
    expect([row.status, row.cancellation_reason, row.membership]).toEqual([
      "canceled",
      "payment_failed",
      "lapsed",
    ]);
  });

  test("an event older than the row's object makes the webhook fetch the subscription: a late 'created' after 'deleted' leaves it cancelled", async () => {
    const { conn, plan } = await setup();
    const billing = stripe.fake.billing;
    const mark = billing.events.length;
    const { subscription } = billing.createSubscription({
      account: conn.account,
      email: `${unique("m")}@example.test`,
      priceId: plan.priceId,
    });
    billing.advance(DAY);
    billing.cancel(subscription.id as string);
    const events = eventsSince(stripe.fake, mark);
    const created = events.find((e) => e.event.type === "customer.subscription.created")!;
    const deleted = events.find((e) => e.event.type === "customer.subscription.deleted")!;
    const path = `/v1/subscriptions/${subscription.id as string}`;
    const fetches = () => stripe.fake.requests.filter((r) => r.path === path).length;

    await deliverAll([deleted]); // first sight: fetched with its customer
    expect(fetches()).toBe(1);
    expect((await subscriptionRow(subscription.id as string)).membership).toBe("cancelled");
    await deliverAll([created]); // older than the row: fetched again, not applied as it came
    expect(fetches()).toBe(2);
    const row = await subscriptionRow(subscription.id as string);
    expect([row.status, row.membership]).toEqual(["canceled", "cancelled"]);
    // the invoice still reaches the feed
    await deliverAll(events.filter((e) => e.event.type === "invoice.paid"));
    const [{ n }] =
      await db.sql`select count(*)::int as n from transactions where contact_id = ${row.contact_id}`;
    expect(n).toBe(1);
  });

  test("a refund of a renewal invoice made in Stripe's dashboard reaches the contact's feed through the three-tier engine", async () => {
    const { ws, conn, plan } = await setup();
    const billing = stripe.fake.billing;
    let mark = billing.events.length;
    const { subscription } = billing.createSubscription({
      account: conn.account,
      email: `${unique("m")}@example.test`,
      priceId: plan.priceId,
    });
    billing.advance(31 * DAY);
    await deliverAll(eventsSince(stripe.fake, mark));
    const renewal = billing
      .invoicesOf(subscription.id as string)
      .find((i) => i.billing_reason === "subscription_cycle")!;

    mark = billing.events.length;
    billing.refundInvoice(renewal.id as string);
    const refunds = eventsSince(stripe.fake, mark);
    expect(refunds.map((e) => e.event.type)).toEqual(["charge.refunded"]);
    expect((await deliverAll(refunds))[0]).toMatchObject({ tier: 1 });

    const rows = await db.sql`
      select external_payproc_transaction_id as ext, status, amount_refunded from transactions
      where workspace_id = ${ws.id} order by transaction_date`;
    expect(
      rows.map((r) => [r.ext.split("_")[0] + "_" + r.ext.split("_")[1], r.status, r.amount_refunded]),
    ).toEqual([
      [expect.any(String), "succeeded", "0.00"],
      [renewal.id, "refunded", "20.00"],
    ]);
  });

  test("a refund delivered before its invoice is applied when the invoice arrives (the charge is read with the invoice)", async () => {
    const { ws, conn, plan } = await setup();
    const billing = stripe.fake.billing;
    const mark = billing.events.length;
    const { subscription, invoice } = billing.createSubscription({
      account: conn.account,
      email: `${unique("m")}@example.test`,
      priceId: plan.priceId,
    });
    billing.refundInvoice(invoice.id as string, 2000);
    const events = eventsSince(stripe.fake, mark);
    const refund = events.find((e) => e.event.type === "charge.refunded")!;
    await deliverAll([refund]);
    await deliverAll(events.filter((e) => e !== refund));
    const [tx] = await db.sql`select status, amount_refunded from transactions where workspace_id = ${ws.id}`;
    expect(tx).toEqual({ status: "refunded", amount_refunded: "20.00" });
    expect((await subscriptionRow(subscription.id as string)).membership).toBe("active");
  });

  test("a subscription to a price that is no plan of the workspace is parked with one review task; nothing is recorded", async () => {
    const { ws, conn } = await setup();
    const billing = stripe.fake.billing;
    const mark = billing.events.length;
    const { subscription } = billing.createSubscription({
      account: conn.account,
      email: `${unique("m")}@example.test`,
      amount: 999,
    });
    const events = eventsSince(stripe.fake, mark);
    const bodies = await deliverAll([...events, ...events.map((e) => ({ ...e }))]);
    expect(bodies[0]).toMatchObject({ subscription: "parked" });
    const tasks = await db.sql`
      select kind, status, payproc_subscription_id, description from tasks where workspace_id = ${ws.id}`;
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      kind: "subscription_review",
      status: "open",
      payproc_subscription_id: subscription.id,
    });
    const counts = await db.sql`
      select (select count(*)::int from subscriptions where workspace_id = ${ws.id}) as subs,
             (select count(*)::int from memberships where workspace_id = ${ws.id}) as members,
             (select count(*)::int from transactions where workspace_id = ${ws.id}) as txs,
             (select count(*)::int from contacts where workspace_id = ${ws.id}) as contacts`;
    expect(counts[0]).toEqual({ subs: 0, members: 0, txs: 0, contacts: 0 });
  });

  test("an event from an account that is no workspace's is kept as ignored and writes nothing", async () => {
    const { ws, plan } = await setup();
    const billing = stripe.fake.billing;
    const mark = billing.events.length;
    billing.createSubscription({
      account: "acct_notAnyWorkspace1",
      email: `${unique("m")}@example.test`,
      priceId: plan.priceId,
    });
    const events = eventsSince(stripe.fake, mark);
    const bodies = await deliverAll(events);
    expect(bodies.every((b) => typeof b.ignored === "string")).toBe(true);
    const inbox = await db.sql`
      select status from webhook_inbox where event_id in ${db.sql(events.map((e) => e.event.id as string))}`;
    expect(inbox.map((r) => r.status)).toEqual(events.map(() => "ignored"));
    const [{ n }] = await db.sql`select count(*)::int as n from subscriptions where workspace_id = ${ws.id}`;
    expect(n).toBe(0);
  });

  test("Stripe unreachable during the fetch: the event stays in the inbox as failed, nothing is half-applied, and its retry applies it", async () => {
    const { ws, conn, plan } = await setup();
    const billing = stripe.fake.billing;
    const mark = billing.events.length;
    const { subscription } = billing.createSubscription({
      account: conn.account,
      email: `${unique("m")}@example.test`,
      priceId: plan.priceId,
    });
    const paid = eventsSince(stripe.fake, mark).find((e) => e.event.type === "invoice.paid")!;
    // the subscription fetch succeeds, the charge read fails: neither is written
    stripe.fake.failNext(/^\/v1\/payment_intents\//, "network", 5);
    expect((await deliver(paid)).status).toBe(500);
    const [inbox] =
      await db.sql`select status, attempts from webhook_inbox where event_id = ${paid.event.id as string}`;
    expect(inbox.status).toBe("failed");
    const counts = await db.sql`
      select (select count(*)::int from subscriptions where workspace_id = ${ws.id}) as subs,
             (select count(*)::int from transactions where workspace_id = ${ws.id}) as txs,
             (select count(*)::int from contacts where workspace_id = ${ws.id}) as contacts`;
    expect(counts[0]).toEqual({ subs: 0, txs: 0, contacts: 0 });

    stripe.fake.clearFailures();
    expect((await deliver(paid)).status).toBe(200);
    const [done] = await db.sql`select status from webhook_inbox where event_id = ${paid.event.id as string}`;
    expect(done.status).toBe("done");
    expect((await subscriptionRow(subscription.id as string)).membership).toBe("active");
    const [{ n }] = await db.sql`select count(*)::int as n from transactions where workspace_id = ${ws.id}`;
    expect(n).toBe(1);
  });

  test("outbound webhooks: membership.started, membership.renewed, payment.failed and membership.lapsed, each once, as documented", async () => {
    const { ws, conn, plan } = await setup();
    const input = webhookEndpointSchema.parse({
      url: "https://hooks.example.test/recurring",
      description: "",
      eventTypes: ["membership.started", "membership.renewed", "membership.lapsed", "payment.failed"],
      enabled: true,
    });
    const { data: endpoint } = await withUser(ws.owner.claims, (tx) =>
      createWebhookEndpoint(tx, { ...input, workspaceId: ws.id }),
    );
    const billing = stripe.fake.billing;
    const first = billing.events.length;
    // each step's events delivered as it happens (late ones are covered above)
    const step = async (act: () => void) => {
      const mark = billing.events.length;
      act();
      await deliverAll(eventsSince(stripe.fake, mark));
    };
    let subscriptionId = "";
    await step(() => {
      subscriptionId = billing.createSubscription({
        account: conn.account,
        email: `${unique("m")}@example.test`,
        priceId: plan.priceId,
      }).subscription.id as string;
    });
    await step(() => billing.advance(31 * DAY)); // renewed
    await step(() => {
      billing.failNextPayment(subscriptionId);
      billing.advance(30 * DAY); // payment failed: grace
    });
    await step(() => billing.advance(30 * DAY)); // still unpaid: lapsed
    await deliverAll(eventsSince(stripe.fake, first)); // Stripe's retries: acknowledged, nothing emitted again
    const sent = await db.sql`
      select event_type, payload from webhook_deliveries where endpoint_id = ${endpoint.id} order by created_at, id`;
    expect(sent.map((d) => d.event_type)).toEqual([
      "membership.started",
      "membership.renewed",
      "payment.failed",
      "membership.lapsed",
    ]);
    for (const d of sent) expect(() => webhookPayloadSchema(d.event_type).parse(d.payload)).not.toThrow();
    expect(sent[2].payload.data).toMatchObject({ payproc_subscription_id: subscriptionId, amount_due: 20 });
  });

  test("GET /api/v1/contacts/{id}/memberships and /api/v1/subscriptions?status= (transactions:read): the workspace's own rows only", async () => {
    const { ws, conn, plan } = await setup();
    const billing = stripe.fake.billing;
    const mark = billing.events.length;
    const kept = billing.createSubscription({
      account: conn.account,
      email: `${unique("m")}@example.test`,
      priceId: plan.priceId,
    });
    const ended = billing.createSubscription({
      account: conn.account,
      email: `${unique("m")}@example.test`,
      priceId: plan.priceId,
    });
    billing.cancel(ended.subscription.id as string);
    await deliverAll(eventsSince(stripe.fake, mark));
    const [member] = await db.sql`
      select contact_id from subscriptions where payproc_subscription_id = ${kept.subscription.id as string}`;

    const key = await apiKey(db.sql, ws.id, ["transactions:read"]);
    const path = `/api/v1/contacts/${member.contact_id}/memberships`;
    const mine = await call(membershipsRoute, { path, key: key.raw, params: { id: member.contact_id } });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0]).toMatchObject({
      contact_id: member.contact_id,
      status: "active",
      plan: { id: plan.id, kind: "membership" },
      subscription: { payproc_subscription_id: kept.subscription.id, status: "active" },
    });

    const canceled = await call(subscriptionsRoute, {
      path: "/api/v1/subscriptions?status=canceled",
      key: key.raw,
    });
    expect(canceled.status).toBe(200);
    expect(
      canceled.body.data.map((s: { payproc_subscription_id: string }) => s.payproc_subscription_id),
    ).toEqual([ended.subscription.id]);
    const all = await call(subscriptionsRoute, { path: "/api/v1/subscriptions?limit=1", key: key.raw });
    expect(all.body.data).toHaveLength(1);
    const next = await call(subscriptionsRoute, {
      path: `/api/v1/subscriptions?limit=1&cursor=${all.body.next_cursor}`,
      key: key.raw,
    });
    expect(next.body.data).toHaveLength(1);
    expect(next.body.data[0].id).not.toBe(all.body.data[0].id);
    expect(
      (await call(subscriptionsRoute, { path: "/api/v1/subscriptions?status=gone", key: key.raw })).status,
    ).toBe(400);

    // a narrower key, and a key of another workspace
    const narrow = await apiKey(db.sql, ws.id, ["contacts:read"]);
    expect(
      (await call(membershipsRoute, { path, key: narrow.raw, params: { id: member.contact_id } })).status,
    ).toBe(403);
    const stranger = await createWorkspace(db.sql);
    const theirs = await apiKey(db.sql, stranger.id, ["transactions:read"]);
    expect(
      (await call(membershipsRoute, { path, key: theirs.raw, params: { id: member.contact_id } })).status,
    ).toBe(404);
    const listed = await call(subscriptionsRoute, { path: "/api/v1/subscriptions", key: theirs.raw });
    expect(listed.body.data).toEqual([]);
  });
});
