import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";
import {
  completePurchase,
  connectPayproc,
  deliver,
  makePurchase,
  rowsOf,
  setupStripeFake,
} from "../helpers/payments";
import { stripeId } from "../fakes/stripe-objects";

const db = setupTestDatabase();
const stripe = setupStripeFake();

async function contactOf(workspaceId: string, email: string) {
  const [row] = await db.sql`select * from contacts where workspace_id = ${workspaceId} and email = ${email}`;
  return row;
}

describe("checkout.session.completed (spec 4.4)", () => {
  test("4.4 steps 2-4: a new contact (source payproc, no audit note) and one row per product", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id);
    const email = "grace.hopper@example.test";
    const p = await completePurchase(stripe.fake, conn, {
      email: "Grace.Hopper@Example.test",
      name: "Grace Brewster Hopper",
      phone: "+1 (202) 555-0143",
      address: {
        line1: "1 Navy Way",
        line2: "Apt 2",
        city: "Arlington",
        state: "VA",
        postal_code: "22201",
        country: "US",
      },
      items: [
        { productId: stripeId("prod", 14), name: "T-shirt", amountTotal: 2500, currency: "USD" },
        { productId: stripeId("prod", 14), name: "Mug", amountTotal: 1299, currency: "USD" },
        { productId: stripeId("prod", 14), name: "Hat", amountTotal: 1, currency: "USD" },
      ],
    });
    const contact = await contactOf(ws.id, email);
    expect(contact).toMatchObject({
      source: "payproc",
      first_name: "Grace Brewster",
      last_name: "Hopper",
      phone: "+1 (202) 555-0143",
      address_line1: "1 Navy Way",
      address_line2: "Apt 2",
      city: "Arlington",
      state: "VA",
      postal_code: "22201",
      country: "US",
      is_subscribed: false,
    });
    const rows = await rowsOf(db.sql, p);
    expect(rows.map((r) => [r.external_payproc_transaction_id, r.amount_paid, r.currency])).toEqual([
      [`${p.sessionId}_${p.productIds[0]}`, "25.00", "usd"],
      [`${p.sessionId}_${p.productIds[1]}`, "12.99", "usd"],
      [`${p.sessionId}_${p.productIds[2]}`, "0.01", "usd"],
    ]);
    for (const r of rows) {
      expect(r).toMatchObject({
        workspace_id: ws.id,
        contact_id: contact.id,
        payproc_payment_intent_id: p.paymentIntentId,
        status: "succeeded",
        amount_refunded: "0.00",
      });
    }
    const products = await db.sql`select name from products where workspace_id = ${ws.id} order by name`;
    expect(products.map((r) => r.name)).toEqual(["Hat", "Mug", "T-shirt"]);
    const [{ n }] = await db.sql`select count(*)::int as n from notes where contact_id = ${contact.id}`;
    expect(n).toBe(0);
    // line items were fetched on the connected account (the Stripe-Account header)
    const fetched = stripe.fake.requests.filter(
      (r) => r.path === `/v1/checkout/sessions/${p.sessionId}/line_items`,
    );
    expect(fetched.map((r) => r.account)).toEqual([conn.account]);
  });

  test("4.4 step 4: a free or fully discounted order has a null payment intent", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id);
    const p = await completePurchase(stripe.fake, conn, { amounts: [0] });
    expect(p.paymentIntentId).toBeNull();
    const rows = await rowsOf(db.sql, p);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount_paid: "0.00", payproc_payment_intent_id: null });
  });

  test("4.4 step 3 / 4.10: an existing contact is merged; overwritten names get one system note", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id);
    const c = await createContact(db.sql, ws.id, { first_name: "Ada", last_name: "Byron", source: "form" });
    await completePurchase(stripe.fake, conn, { email: c.email, name: "Ada Lovelace", phone: "2025550143" });
    const contact = await contactOf(ws.id, c.email);
    expect(contact).toMatchObject({
      first_name: "Ada",
      last_name: "Lovelace",
      phone: "2025550143",
      source: "form",
    });
    const notes = await db.sql`select content_text, created_by from notes where contact_id = ${c.id}`;
    expect(notes).toHaveLength(1);
    expect(notes[0].created_by).toBeNull();
    expect(notes[0].content_text).toContain('Last name: "Byron" → "Lovelace"');
    expect(notes[0].content_text).toContain("payment checkout");
  });

  test("4.4 step 5: a replayed event is acknowledged and changes nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id, { autoSubscribe: true });
    const p = makePurchase(stripe.fake, conn, { amounts: [1000, 2000] });
    expect((await deliver(p.event)).status).toBe(200);
    const before = await db.sql`select * from transactions where workspace_id = ${ws.id} order by id`;
    const [contactBefore] = await db.sql`select * from contacts where workspace_id = ${ws.id}`;
    const replay = await deliver(p.event);
    expect(replay).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(await db.sql`select * from transactions where workspace_id = ${ws.id} order by id`).toEqual(
      before,
    );
    expect((await db.sql`select * from contacts where workspace_id = ${ws.id}`)[0]).toEqual(contactBefore);
    const [{ n }] =
      await db.sql`select count(*)::int as n from webhook_inbox where event_id = ${p.event.event.id as string}`;
    expect(n).toBe(1);
  });

  test("4.4 step 5: the same session in another event changes nothing (no rows, no contact change, no consent)", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id, { autoSubscribe: true });
    const p = makePurchase(stripe.fake, conn, { amounts: [1000] });
    await deliver(p.event);
    const [contactBefore] = await db.sql`select * from contacts where workspace_id = ${ws.id}`;
    await db.sql`update contacts set is_subscribed = false, first_name = 'Changed' where id = ${contactBefore.id}`;
    const [changed] = await db.sql`select * from contacts where id = ${contactBefore.id}`;
    const other = stripe.fake.sign(
      "checkout.session.completed",
      (p.event.event.data as { object: never }).object,
      {
        account: conn.account,
      },
    );
    const reply = await deliver(other);
    expect(reply.body).toMatchObject({ received: true, status: "duplicate" });
    expect((await db.sql`select * from contacts where id = ${contactBefore.id}`)[0]).toEqual(changed);
    const [{ n }] = await db.sql`select count(*)::int as n from transactions where workspace_id = ${ws.id}`;
    expect(n).toBe(1);
    const [{ ce }] =
      await db.sql`select count(*)::int as ce from consent_events where contact_id = ${contactBefore.id}`;
    expect(ce).toBe(1);
  });
});

describe("auto-subscribe purchasers (spec 4.4 step 6)", () => {
  test("4.4 step 6: off: a new purchaser is not subscribed", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id, { autoSubscribe: false });
    const p = await completePurchase(stripe.fake, conn);
    const [c] =
      await db.sql`select is_subscribed, opt_in_source from contacts where id = (select contact_id from transactions where external_payproc_transaction_id like ${p.sessionId + "%"} limit 1)`;
    expect(c).toEqual({ is_subscribed: false, opt_in_source: null });
  });

  test("4.4 step 6: on: opts in (source payproc_auto_subscribe, no IP), clears unsubscribed_at, bounce and unsubscribe", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id, { autoSubscribe: true });
    const c = await createContact(db.sql, ws.id, { unsubscribed_at: new Date("2025-01-01T00:00:00Z") });
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, 'bounce'), (${c.id}, 'unsubscribe')`;
    const before = Date.now();
    await completePurchase(stripe.fake, conn, { email: c.email });
    const [row] = await db.sql`select * from contacts where id = ${c.id}`;
    expect(row).toMatchObject({
      is_subscribed: true,
      opt_in_source: "payproc_auto_subscribe",
      opt_in_ip: null,
      unsubscribed_at: null,
    });
    expect(row.opt_in_timestamp.getTime()).toBeGreaterThanOrEqual(before - 5000);
    const supp = await db.sql`select reason from contact_suppressions where contact_id = ${c.id}`;
    expect(supp).toEqual([]);
  });

  test("4.4 step 6: a new purchaser is created subscribed", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id, { autoSubscribe: true });
    const email = "new.buyer@example.test";
    await completePurchase(stripe.fake, conn, { email });
    expect(await contactOf(ws.id, email)).toMatchObject({
      is_subscribed: true,
      opt_in_source: "payproc_auto_subscribe",
      source: "payproc",
    });
  });

  test.each(["complaint", "manual"])(
    "4.4 step 6: skipped when the contact has a %s suppression",
    async (reason) => {
      const ws = await createWorkspace(db.sql);
      const conn = await connectPayproc(db.sql, ws.id, { autoSubscribe: true });
      const c = await createContact(db.sql, ws.id, { unsubscribed_at: new Date("2025-01-01T00:00:00Z") });
      await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, ${reason}), (${c.id}, 'unsubscribe')`;
      await completePurchase(stripe.fake, conn, { email: c.email });
      const [row] =
        await db.sql`select is_subscribed, opt_in_source, unsubscribed_at from contacts where id = ${c.id}`;
      expect(row).toEqual({
        is_subscribed: false,
        opt_in_source: null,
        unsubscribed_at: new Date("2025-01-01T00:00:00Z"),
      });
      const supp =
        await db.sql`select reason from contact_suppressions where contact_id = ${c.id} order by reason`;
      expect(supp.map((s) => s.reason)).toEqual([reason, "unsubscribe"].sort());
    },
  );

  test("4.4 step 6: an already cleanly subscribed contact keeps opt_in_source, opt_in_timestamp and opt_in_ip", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id, { autoSubscribe: true });
    const consent = {
      is_subscribed: true,
      opt_in_source: "form-123",
      opt_in_timestamp: new Date("2024-05-01T10:00:00Z"),
      opt_in_ip: "203.0.113.9",
    };
    const c = await createContact(db.sql, ws.id, consent);
    await completePurchase(stripe.fake, conn, { email: c.email });
    const [row] =
      await db.sql`select is_subscribed, opt_in_source, opt_in_timestamp, opt_in_ip, unsubscribed_at from contacts where id = ${c.id}`;
    expect(row).toEqual({ ...consent, unsubscribed_at: null });
    const [{ n }] = await db.sql`select count(*)::int as n from consent_events where contact_id = ${c.id}`;
    expect(n).toBe(0);
  });

  test("4.4 step 6: subscribed but with a stale unsubscribed_at is not 'cleanly subscribed': opted in again", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id, { autoSubscribe: true });
    const c = await createContact(db.sql, ws.id, {
      is_subscribed: true,
      opt_in_source: "old",
      unsubscribed_at: new Date(),
    });
    await completePurchase(stripe.fake, conn, { email: c.email });
    const [row] = await db.sql`select opt_in_source, unsubscribed_at from contacts where id = ${c.id}`;
    expect(row).toEqual({ opt_in_source: "payproc_auto_subscribe", unsubscribed_at: null });
  });
});

describe("concurrency", () => {
  test("4.4 step 3: concurrent first purchases by one new email make one contact (the 23505 case)", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id, { autoSubscribe: true });
    const email = "race@example.test";
    const purchases = Array.from({ length: 4 }, () =>
      makePurchase(stripe.fake, conn, { email, amounts: [1000, 500] }),
    );
    const replies = await Promise.all(purchases.map((p) => deliver(p.event)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const contacts = await db.sql`select id from contacts where workspace_id = ${ws.id}`;
    expect(contacts).toHaveLength(1);
    const [{ n, c }] = await db.sql`
      select count(*)::int as n, count(distinct contact_id)::int as c from transactions where workspace_id = ${ws.id}`;
    expect({ n, c }).toEqual({ n: 8, c: 1 });
  });

  test("4.4 step 5: the same event delivered twice at once is processed once", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id);
    const p = makePurchase(stripe.fake, conn, { amounts: [1000, 2000, 3000] });
    const replies = await Promise.all([deliver(p.event), deliver(p.event), deliver(p.event)]);
    // one processes it; the others find it done (200, duplicate) or still held (409, retried later)
    expect(replies.filter((r) => r.status === 200 && !r.body.duplicate)).toHaveLength(1);
    for (const r of replies) expect([200, 409]).toContain(r.status);
    expect(await rowsOf(db.sql, p)).toHaveLength(3);
    const [inbox] =
      await db.sql`select status, attempts from webhook_inbox where event_id = ${p.event.event.id as string}`;
    expect(inbox).toEqual({ status: "done", attempts: 1 });
    const [{ n }] = await db.sql`select count(*)::int as n from contacts where workspace_id = ${ws.id}`;
    expect(n).toBe(1);
  });
});
