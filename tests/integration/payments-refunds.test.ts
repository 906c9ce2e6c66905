import { describe, expect, test } from "vitest";
import { withService } from "@/lib/db/doors";
import { recordTransactionRefund } from "@/lib/payments/record-transaction-refund";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";
import {
  completePurchase,
  connectPayproc,
  deliver,
  refundAtStripe,
  rowsOf,
  setupStripeFake,
  type Purchase,
} from "../helpers/payments";

const db = setupTestDatabase();
const stripe = setupStripeFake();

async function buy(amounts: number[], opts: { autoTag?: boolean } = {}) {
  const ws = await createWorkspace(db.sql);
  const conn = await connectPayproc(db.sql, ws.id);
  const purchase = await completePurchase(stripe.fake, conn, { amounts });
  if (opts.autoTag) await addRefundAutomation(ws.id);
  return { ws, conn, purchase };
}

/** An automation on product_refunded that tags the contact, so trigger runs are visible. */
async function addRefundAutomation(workspaceId: string) {
  const [tag] =
    await db.sql`insert into tags (workspace_id, name) values (${workspaceId}, 'Refunded') returning id`;
  await db.sql`
    insert into automations (workspace_id, name, trigger_type, action_type, action_config)
    values (${workspaceId}, 'tag refunds', 'product_refunded', 'add_tag', ${db.sql.json({ tag_id: tag.id })})`;
}

async function refund(p: Purchase, cents: number) {
  return deliver(refundAtStripe(stripe.fake, p, cents));
}

async function state(p: Purchase) {
  const rows = await rowsOf(db.sql, p);
  return rows.map((r) => `${r.status}:${r.amount_refunded}`);
}

async function triggerRuns(workspaceId: string) {
  const rows = await db.sql`
    select payload->>'transactionId' as id from automation_runs
    where workspace_id = ${workspaceId} and trigger_type = 'product_refunded' order by created_at`;
  return rows.map((r) => r.id);
}

async function openReviewTasks(workspaceId: string) {
  return db.sql`select * from tasks where workspace_id = ${workspaceId} and kind = 'refund_review' and status = 'open'`;
}

describe("charge.refunded, tier 1: the refund covers everything left (spec 3.1)", () => {
  test.each([[[1000]], [[1000, 2500]], [[1000, 2500, 499]]])(
    "3.1 tier 1 with %j: every row refunded, amount_refunded = amount_paid, product_refunded per product",
    async (amounts) => {
      const { ws, purchase } = await buy(amounts, { autoTag: true });
      const total = amounts.reduce((a, b) => a + b, 0);
      const reply = await refund(purchase, total);
      expect(reply.body).toMatchObject({ received: true, tier: 1 });
      const rows = await rowsOf(db.sql, purchase);
      expect(rows.map((r) => [r.status, r.amount_refunded])).toEqual(
        rows.map((r) => ["refunded", r.amount_paid]),
      );
      expect((await triggerRuns(ws.id)).sort()).toEqual(rows.map((r) => r.id).sort());
      expect(await openReviewTasks(ws.id)).toHaveLength(0);
    },
  );
});

describe("charge.refunded, tier 2: the refund equals one row's remaining balance", () => {
  test("3.1 tier 2 with one product: a refund of the whole remaining balance is tier 1 (tier 2 needs a sibling)", async () => {
    const { purchase } = await buy([1000]);
    expect((await refund(purchase, 1000)).body).toMatchObject({ tier: 1 });
    expect(await state(purchase)).toEqual(["refunded:10.00"]);
  });

  test("3.1 tier 2 with two products: only the matching row is refunded, once triggered", async () => {
    const { ws, purchase } = await buy([1000, 2500], { autoTag: true });
    expect((await refund(purchase, 2500)).body).toMatchObject({ tier: 2 });
    expect(await state(purchase)).toEqual(["succeeded:0.00", "refunded:25.00"]);
    const rows = await rowsOf(db.sql, purchase);
    expect(await triggerRuns(ws.id)).toEqual([rows[1].id]);
  });

  test("3.1 tier 2 with three products", async () => {
    const { ws, purchase } = await buy([1000, 2000, 3000], { autoTag: true });
    expect((await refund(purchase, 2000)).body).toMatchObject({ tier: 2 });
    expect(await state(purchase)).toEqual(["succeeded:0.00", "refunded:20.00", "succeeded:0.00"]);
    expect(await triggerRuns(ws.id)).toHaveLength(1);
  });
});

describe("charge.refunded, tier 3: no single match, or several", () => {
  test.each([[[1000]], [[1000, 2500]], [[1000, 2500, 499]]])(
    "3.1 tier 3 with %j: nothing changes, a review task, no trigger",
    async (amounts) => {
      const { ws, purchase } = await buy(amounts, { autoTag: true });
      expect((await refund(purchase, 300)).body).toMatchObject({ tier: 3 });
      expect(await state(purchase)).toEqual(amounts.map(() => "succeeded:0.00"));
      expect(await triggerRuns(ws.id)).toEqual([]);
      expect(await openReviewTasks(ws.id)).toHaveLength(1);
    },
  );

  test("3.1 tier 3: equal-priced products make the refund ambiguous", async () => {
    const { ws, purchase } = await buy([2000, 2000, 3000], { autoTag: true });
    expect((await refund(purchase, 2000)).body).toMatchObject({ tier: 3 });
    expect(await state(purchase)).toEqual(["succeeded:0.00", "succeeded:0.00", "succeeded:0.00"]);
    const [task] = await openReviewTasks(ws.id);
    expect(task.description).toContain(
      "equals the remaining balance of more than one product (Product 1, Product 2)",
    );
  });
});

describe("successive refunds, replays and cents", () => {
  test("3.1: successive partial refunds are matched one by one, the last one closes the review task", async () => {
    const { ws, purchase } = await buy([1000, 2000, 3000], { autoTag: true });
    expect((await refund(purchase, 1000)).body).toMatchObject({ tier: 2 });
    expect((await refund(purchase, 1500)).body).toMatchObject({ tier: 3 });
    expect(await openReviewTasks(ws.id)).toHaveLength(1);
    // the next refund's delta is what Stripe refunded beyond what is recorded: 1500 + 500 = 2000
    expect((await refund(purchase, 500)).body).toMatchObject({ tier: 2 });
    expect(await state(purchase)).toEqual(["refunded:10.00", "refunded:20.00", "succeeded:0.00"]);
    expect(await openReviewTasks(ws.id)).toHaveLength(0);
    expect((await refund(purchase, 3000)).body).toMatchObject({ tier: 1 });
    expect(await state(purchase)).toEqual(["refunded:10.00", "refunded:20.00", "refunded:30.00"]);
    expect(await triggerRuns(ws.id)).toHaveLength(3);
  });

  test("3.1: a refund after a manual partial refund counts what was recorded by hand", async () => {
    const { ws, purchase } = await buy([1000, 2000]);
    // Stripe refunded 5.00; the owner recorded it on the second product (review option B)
    expect((await refund(purchase, 500)).body).toMatchObject({ tier: 3 });
    const rows = await rowsOf(db.sql, purchase);
    const manual = await withService((tx) =>
      recordTransactionRefund(tx, {
        workspaceId: ws.id,
        transactionId: rows[1].id,
        refundAmount: 5,
        runAutomations: false,
      }),
    );
    expect(manual).toEqual({ success: true });
    // Stripe refunds the remaining 15.00 of the second product: delta 2000 - 500 = 1500, tier 2
    expect((await refund(purchase, 1500)).body).toMatchObject({ tier: 2 });
    expect(await state(purchase)).toEqual(["succeeded:0.00", "refunded:20.00"]);
  });

  test("3.1: amounts in cents that floating point would get wrong (0.10 + 0.20 refunded as 0.30)", async () => {
    const { purchase } = await buy([10, 20]);
    // 0.1 + 0.2 = 0.30000000000000004 > 0.3 in floating point: tier 1 would be missed
    expect((await refund(purchase, 30)).body).toMatchObject({ tier: 1 });
    expect(await state(purchase)).toEqual(["refunded:0.10", "refunded:0.20"]);
  });

  test("3.1: 19.99 + 0.01 products; refunding 0.01 matches the second row exactly", async () => {
    const { purchase } = await buy([1999, 1, 1000]);
    expect((await refund(purchase, 1)).body).toMatchObject({ tier: 2 });
    expect((await refund(purchase, 1999)).body).toMatchObject({ tier: 2 });
    expect(await state(purchase)).toEqual(["refunded:19.99", "refunded:0.01", "succeeded:0.00"]);
  });

  test("4.4: a replayed charge.refunded event changes nothing", async () => {
    const { ws, purchase } = await buy([1000, 2000], { autoTag: true });
    const event = refundAtStripe(stripe.fake, purchase, 1000);
    expect((await deliver(event)).body).toMatchObject({ tier: 2 });
    const before = await db.sql`select * from transactions where workspace_id = ${ws.id} order by id`;
    expect((await deliver(event)).body).toEqual({ received: true, duplicate: true });
    expect(await db.sql`select * from transactions where workspace_id = ${ws.id} order by id`).toEqual(
      before,
    );
    expect(await triggerRuns(ws.id)).toHaveLength(1);
  });

  test("3.1 refund delta: an older event arriving after a newer one applies nothing (the delta is cumulative)", async () => {
    const { purchase } = await buy([1000, 2000]);
    const first = refundAtStripe(stripe.fake, purchase, 1000);
    const second = refundAtStripe(stripe.fake, purchase, 2000);
    expect((await deliver(second)).body).toMatchObject({ tier: 1 });
    expect((await deliver(first)).body).toMatchObject({ tier: null });
    expect(await state(purchase)).toEqual(["refunded:10.00", "refunded:20.00"]);
  });

  test("3.1: two refund events for one intent at the same time give the right result", async () => {
    const { ws, conn, purchase } = await buy([1000, 2000], { autoTag: true });
    // three intents, each with two refund events delivered at once: more chances for a race
    const purchases = [purchase];
    for (let i = 0; i < 2; i++)
      purchases.push(await completePurchase(stripe.fake, conn, { amounts: [1000, 2000] }));
    const events = purchases.flatMap((p) => [
      refundAtStripe(stripe.fake, p, 1000), // cumulative 1000
      refundAtStripe(stripe.fake, p, 2000), // cumulative 3000
    ]);
    const replies = await Promise.all(events.map((e) => deliver(e)));
    expect(replies.map((r) => r.status)).toEqual(events.map(() => 200));
    // in either order both products end refunded; without the row lock both events would
    // compute their delta from nothing recorded and the 10.00 product would be triggered twice
    for (const p of purchases) expect(await state(p)).toEqual(["refunded:10.00", "refunded:20.00"]);
    const runs = await triggerRuns(ws.id);
    expect(runs).toHaveLength(6);
    expect(new Set(runs).size).toBe(6);
  });
});
