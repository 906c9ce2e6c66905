import { describe, expect, test } from "vitest";
import { AppError } from "@/lib/errors/app-error";
import { backfillPaymentIntents } from "@/lib/payments/flows/backfill-payment-intents";
import { backfillRefunds } from "@/lib/payments/flows/backfill-refunds";
import { createWorkspace } from "../helpers/factories";
import { completePurchase, connectPayproc } from "../helpers/payments";
import { setupBackfillTest } from "../helpers/payments-backfill";

const { db, stripe, deps, historic, historicRow, intentOf } = setupBackfillTest();

describe("backfillPaymentIntents (spec 4.11)", () => {
  test("4.11: each row gets the intent, 'none', 'error_fetching' or 'invalid_format'; remaining drains to zero", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id);
    const paid = await historic(conn, [1000, 2000]);
    const free = await historic(conn, [0]);
    const unreachable = await historic(conn, [500]);
    stripe.fake.failNext(`/v1/checkout/sessions/${unreachable.sessionId}`, "network", 100);
    const missing = await historicRow(ws.id, "cs_test_doesNotExist123_prod_x");
    const invalid = await historicRow(ws.id, "legacy-order-17");
    const noSuffix = await historicRow(ws.id, "cs_test_abc");
    const other = await createWorkspace(db.sql);
    await connectPayproc(db.sql, other.id);
    const otherRow = await historicRow(other.id, `${paid.sessionId}_prod_other`);

    const remaining: number[] = [];
    for (let pass = 0; pass < 10; pass++) {
      const result = await backfillPaymentIntents(deps(), { workspaceId: ws.id, limit: 3 });
      if ("error" in result) throw result.error;
      remaining.push(result.data.remaining);
      if (result.data.remaining === 0) break;
    }
    expect(remaining).toEqual([4, 1, 0]);
    expect(await Promise.all(paid.ids.map(intentOf))).toEqual([paid.paymentIntentId, paid.paymentIntentId]);
    expect(await intentOf(free.ids[0])).toBe("none");
    expect(await intentOf(unreachable.ids[0])).toBe("error_fetching");
    expect(await intentOf(missing)).toBe("error_fetching");
    expect(await intentOf(invalid)).toBe("invalid_format");
    expect(await intentOf(noSuffix)).toBe("invalid_format");
    expect(await intentOf(otherRow)).toBeNull();
    // the lookups were scoped to the connected account; one lookup per session
    const lookups = stripe.fake.requests.filter((r) => r.path === `/v1/checkout/sessions/${paid.sessionId}`);
    expect(lookups.map((r) => r.account)).toEqual([conn.account]);
    stripe.fake.clearFailures();
  });

  test("4.11: a rate limit is retried and the row still gets its intent", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id);
    const paid = await historic(conn, [1000]);
    stripe.fake.failNext(`/v1/checkout/sessions/${paid.sessionId}`, 429, 2);
    const result = await backfillPaymentIntents(deps(), { workspaceId: ws.id });
    expect(result).toEqual({
      data: {
        processed: 1,
        outcomes: { intent: 1, none: 0, error_fetching: 0, invalid_format: 0 },
        remaining: 0,
      },
    });
    expect(await intentOf(paid.ids[0])).toBe(paid.paymentIntentId);
  });

  test("4.11: fails at once when the workspace has no payment processor connection", async () => {
    const ws = await createWorkspace(db.sql);
    const row = await historicRow(ws.id, "cs_test_abc123_prod_1");
    const before = stripe.fake.requests.length;
    expect(await backfillPaymentIntents(deps(), { workspaceId: ws.id })).toEqual({
      error: new AppError("conflict", "This workspace has no payment processor connection."),
    });
    expect(await backfillRefunds(deps(), { workspaceId: ws.id })).toEqual({
      error: new AppError("conflict", "This workspace has no payment processor connection."),
    });
    expect(stripe.fake.requests.length).toBe(before);
    expect(await intentOf(row)).toBeNull();
  });
});

describe("backfillRefunds (spec 4.12)", () => {
  async function shop() {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id);
    await db.sql`
      insert into automations (workspace_id, name, trigger_type, action_type, action_config)
      values (${ws.id}, 'follow up', 'product_refunded', 'create_task', ${db.sql.json({ title: "Call" })})`;
    const a = await completePurchase(stripe.fake, conn, { amounts: [1000, 2000] });
    const b = await completePurchase(stripe.fake, conn, { amounts: [1500, 2500] });
    const c = await completePurchase(stripe.fake, conn, { amounts: [700] });
    // refunds the webhook never delivered: a in full, b in two parts (1000 + 1500 = the 25.00 product), c later
    stripe.fake.refund(a.chargeId!, 3000, 1_700_000_100);
    stripe.fake.refund(b.chargeId!, 1000, 1_700_000_200);
    stripe.fake.refund(b.chargeId!, 1500, 1_700_000_300);
    stripe.fake.refund(c.chargeId!, 700, 1_700_009_000);
    return { ws, conn, a, b, c };
  }
  const statuses = async (workspaceId: string) =>
    (
      await db.sql`
        select t.payproc_payment_intent_id as pi, t.amount_paid, t.status from transactions t
        where t.workspace_id = ${workspaceId} order by t.payproc_payment_intent_id, t.amount_paid`
    ).map((r) => `${r.amount_paid}:${r.status}`);

  test("4.12: refunds in the window, de-duplicated by charge, through the engine with automations off", async () => {
    const { ws, a, b } = await shop();
    const result = await backfillRefunds(deps(), {
      workspaceId: ws.id,
      since: 1_700_000_000,
      until: 1_700_005_000,
    });
    expect(result).toEqual({
      data: {
        refunds: 3,
        charges: 2,
        applied: { tier1: 1, tier2: 1, unchanged: 0, unmatched: 0 },
        nextCursor: null,
      },
    });
    const list = stripe.fake.requests.filter((r) => r.path === "/v1/refunds").at(-1)!;
    expect(list.query.get("created[gte]")).toBe("1700000000");
    expect(list.query.get("created[lte]")).toBe("1700005000");
    expect(stripe.fake.requests.filter((r) => r.path === `/v1/charges/${b.chargeId}`)).toHaveLength(1);
    void a;
    const rows = await statuses(ws.id);
    expect(rows.filter((r) => r.endsWith("refunded")).sort()).toEqual([
      "10.00:refunded",
      "20.00:refunded",
      "25.00:refunded",
    ]);
    expect(rows).toContain("7.00:succeeded"); // outside the window
    const [{ runs }] =
      await db.sql`select count(*)::int as runs from automation_runs where workspace_id = ${ws.id}`;
    const [{ tasks }] = await db.sql`select count(*)::int as tasks from tasks where workspace_id = ${ws.id}`;
    expect({ runs, tasks }).toEqual({ runs: 0, tasks: 0 });
  });

  test("4.12: nextCursor follows the pages to the end; running again changes nothing", async () => {
    const { ws } = await shop();
    const cursors: (string | null)[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const result = await backfillRefunds(deps(), { workspaceId: ws.id, startingAfter: cursor, limit: 1 });
      if ("error" in result) throw result.error;
      cursors.push(result.data.nextCursor);
      if (!result.data.nextCursor) break;
      cursor = result.data.nextCursor;
    }
    expect(cursors).toHaveLength(4);
    expect(cursors.at(-1)).toBeNull();
    expect(new Set(cursors.slice(0, 3)).size).toBe(3);
    const after = await statuses(ws.id);
    // b refunded 25.00 of 40.00 in two parts: the 25.00 product; the 15.00 one is not refunded
    expect(after.filter((r) => r.endsWith("succeeded"))).toEqual(["15.00:succeeded"]);
    expect(after).toHaveLength(5);
    await backfillRefunds(deps(), { workspaceId: ws.id });
    expect(await statuses(ws.id)).toEqual(after);
  });
});
