import { spawn } from "node:child_process";
import { describe, expect, test, vi } from "vitest";
import type { Claims } from "@/lib/db/doors";
import { backfillPaymentIntents } from "@/lib/payments/backfill-payment-intents";
import { backfillRefunds } from "@/lib/payments/backfill-refunds";
import { runBackfillCli } from "@/lib/payments/backfill-cli";
import { stripeClient } from "@/lib/payments/stripe-client";
import type { RetryOptions } from "@/lib/payments/stripe-retry";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace } from "../helpers/factories";
import { completePurchase, connectPayproc, setupStripeFake, type Connection } from "../helpers/payments";
import { stripeId } from "../fakes/stripe-objects";

// The endpoints' session lookup reads Next.js cookies; here the signed-in member is chosen per test.
const session = vi.hoisted(() => ({ claims: null as Claims | null }));
vi.mock("server-only", () => ({}));
vi.mock("@/lib/auth/session", () => ({ getClaims: async () => session.claims }));

const db = setupTestDatabase();
const stripe = setupStripeFake();
const FAST: RetryOptions = { attempts: 3, baseDelayMs: 1 };
const deps = () => ({ stripe: stripeClient(), retry: FAST });

/** A purchase made before the webhook existed: rows with a null payproc_payment_intent_id. */
async function historic(conn: Connection, amounts: number[]) {
  const items = amounts.map((amountTotal) => ({
    productId: stripeId("prod", 14),
    name: "Old product",
    amountTotal,
  }));
  const { session } = stripe.fake.addCheckout({ account: conn.account, email: "old@example.test", items });
  const ids = [];
  for (const item of items)
    ids.push(await historicRow(conn.workspaceId, `${session.id}_${item.productId}`, item.amountTotal));
  return { sessionId: session.id as string, paymentIntentId: session.payment_intent as string | null, ids };
}

async function historicRow(workspaceId: string, externalId: string, cents = 1000) {
  const c = await createContact(db.sql, workspaceId);
  const [row] = await db.sql`
    insert into transactions (workspace_id, contact_id, amount_paid, currency, external_payproc_transaction_id, transaction_date)
    values (${workspaceId}, ${c.id}, ${cents / 100}, 'usd', ${externalId}, now() - interval '1 year')
    returning id`;
  return row.id as string;
}

async function intentOf(id: string) {
  const [row] = await db.sql`select payproc_payment_intent_id from transactions where id = ${id}`;
  return row.payproc_payment_intent_id;
}

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
      if ("error" in result) throw new Error(result.error);
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
      error: "This workspace has no payment processor connection.",
    });
    expect(await backfillRefunds(deps(), { workspaceId: ws.id })).toEqual({
      error: "This workspace has no payment processor connection.",
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
      if ("error" in result) throw new Error(result.error);
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

describe("npm run backfill:payments (spec 4.12 CLI)", () => {
  async function missedHistory() {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id);
    const old = await historic(conn, [1000, 2000]);
    const older = await historic(conn, [4000]);
    stripe.fake.refund(stripe.fake.chargeIdOf(old.paymentIntentId!)!, 2000);
    stripe.fake.refund(stripe.fake.chargeIdOf(older.paymentIntentId!)!, 4000);
    await historicRow(ws.id, `legacy-${stripeId("x", 8)}`);
    return { ws, old, older };
  }

  test("4.12: the three phases end to end, retrying a rate limit, and safe to run again", async () => {
    const { ws, old, older } = await missedHistory();
    stripe.fake.failNext("/v1/refunds", 429, 1);
    const lines: string[] = [];
    const code = await runBackfillCli(["--workspace", ws.id, "--batch", "2"], {
      ...deps(),
      log: (l) => lines.push(l),
    });
    expect(code).toBe(0);
    const out = lines.join("\n");
    expect(out).toMatch(
      /Phase 1 of 3: payment intents\n {2}pass 1: 2 rows .*; 2 remaining\n {2}pass 2: 2 rows .*; 0 remaining/,
    );
    expect(out).toContain("Stripe: rate limited (429); retrying in");
    expect(out).toContain("Phase 2 of 3: refunds");
    expect(out).toMatch(/Phase 3 of 3: payment intents\n {2}pass 1: 0 rows .*; 0 remaining\nDone\./);
    const rows = await db.sql`
      select id, payproc_payment_intent_id as pi, status from transactions where workspace_id = ${ws.id}`;
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(old.ids.map((id) => byId.get(id)!.status)).toEqual(["succeeded", "refunded"]);
    expect(byId.get(older.ids[0])).toMatchObject({ pi: older.paymentIntentId, status: "refunded" });
    expect(rows.filter((r) => r.pi === null)).toEqual([]);

    const again: string[] = [];
    expect(await runBackfillCli(["--workspace", ws.id], { ...deps(), log: (l) => again.push(l) })).toBe(0);
    const after =
      await db.sql`select id, payproc_payment_intent_id as pi, status from transactions where workspace_id = ${ws.id}`;
    expect(after).toEqual(rows);
  });

  test("4.12: the script as a process, against the fake, with the service identity", async () => {
    const { ws, older } = await missedHistory();
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn("npx", ["tsx", "scripts/backfill-payments.ts", "--workspace", ws.id], {
        env: { ...process.env, ...stripe.fake.env, DATABASE_URL: db.url },
      });
      let output = "";
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
      child.on("exit", (code) => resolve({ code, output }));
    });
    expect(output).toContain("Done.");
    expect(code).toBe(0);
    const [row] = await db.sql`select status from transactions where id = ${older.ids[0]}`;
    expect(row.status).toBe("refunded");
  }, 120_000);

  test("4.12: bad arguments and a workspace without a connection exit non-zero with a message", async () => {
    const lines: string[] = [];
    expect(await runBackfillCli([], { ...deps(), log: (l) => lines.push(l) })).toBe(2);
    expect(lines.join("\n")).toContain("Usage: npm run backfill:payments");
    const ws = await createWorkspace(db.sql);
    const out: string[] = [];
    expect(await runBackfillCli(["--workspace", ws.id], { ...deps(), log: (l) => out.push(l) })).toBe(1);
    expect(out.join("\n")).toContain("This workspace has no payment processor connection.");
  });
});

describe("the backfill endpoints (spec 4.11, 4.12; DESIGN 5 authentication)", () => {
  const KEY = "service-key-for-tests-0123456789";
  const call = (
    route: { GET: (r: Request) => Promise<Response> },
    query: string,
    headers: Record<string, string> = {},
  ) =>
    route.GET(new Request(`http://localhost/api/admin/x?${query}`, { headers })).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));

  test("DESIGN 5: the service key, or a signed-in owner or admin; members, strangers and bad keys are refused", async () => {
    process.env.SERVICE_API_KEY = KEY;
    const intents = await import("@/app/api/admin/backfill-payment-intents/route");
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id);
    const paid = await historic(conn, [1000]);
    const q = `workspace_id=${ws.id}`;

    session.claims = null;
    expect(await call(intents, q)).toMatchObject({ status: 401, body: { success: false } });
    expect(await call(intents, q, { authorization: "Bearer wrong-key-wrong-key-wrong" })).toMatchObject({
      status: 401,
    });
    const member = await addMember(db.sql, ws.id, "member");
    session.claims = member.claims;
    expect(await call(intents, q)).toMatchObject({ status: 403 });
    session.claims = (await createWorkspace(db.sql)).owner.claims;
    expect(await call(intents, q)).toMatchObject({ status: 403 });
    expect(await intentOf(paid.ids[0])).toBeNull();

    const admin = await addMember(db.sql, ws.id, "admin");
    session.claims = admin.claims;
    expect(await call(intents, q)).toEqual({
      status: 200,
      body: {
        success: true,
        processed: 1,
        outcomes: { intent: 1, none: 0, error_fetching: 0, invalid_format: 0 },
        remaining: 0,
      },
    });
    session.claims = null;
    expect(await call(intents, q, { authorization: `Bearer ${KEY}` })).toMatchObject({
      status: 200,
      body: { remaining: 0 },
    });
  });

  test("4.11, 4.12: bad parameters answer 400, no connection 409, and refunds carry nextCursor", async () => {
    process.env.SERVICE_API_KEY = KEY;
    const auth = { authorization: `Bearer ${KEY}` };
    const intents = await import("@/app/api/admin/backfill-payment-intents/route");
    const refunds = await import("@/app/api/admin/backfill-refunds/route");
    expect(await call(intents, "workspace_id=nope", auth)).toMatchObject({
      status: 400,
      body: { success: false },
    });
    const bare = await createWorkspace(db.sql);
    expect(await call(intents, `workspace_id=${bare.id}`, auth)).toEqual({
      status: 409,
      body: { success: false, error: "This workspace has no payment processor connection." },
    });
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id);
    expect(await call(refunds, `workspace_id=${ws.id}&since=yesterday`, auth)).toMatchObject({ status: 400 });
    const p = await completePurchase(stripe.fake, conn, { amounts: [1000, 2000] });
    stripe.fake.refund(p.chargeId!, 1000, 1_800_000_000);
    stripe.fake.refund(p.chargeId!, 2000, 1_800_000_100);
    const first = await call(
      refunds,
      `workspace_id=${ws.id}&limit=1&since=1800000000&until=1800000100`,
      auth,
    );
    expect(first).toMatchObject({
      status: 200,
      body: { success: true, refunds: 1, nextCursor: expect.stringMatching(/^re_/) },
    });
    const second = await call(
      refunds,
      `workspace_id=${ws.id}&limit=1&starting_after=${first.body.nextCursor}`,
      auth,
    );
    expect(second).toMatchObject({ status: 200, body: { refunds: 1, nextCursor: null } });
    stripe.fake.failNext("/v1/refunds", "network", 10);
    expect(await call(refunds, `workspace_id=${ws.id}`, auth)).toMatchObject({
      status: 502,
      body: { success: false },
    });
    stripe.fake.clearFailures();
  });
});
