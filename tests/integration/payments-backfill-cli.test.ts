import { spawn } from "node:child_process";
import { describe, expect, test, vi } from "vitest";
import type { Claims } from "@/lib/db/doors";
import { runBackfillCli } from "@/lib/payments/backfill-cli";
import { addMember, createWorkspace } from "../helpers/factories";
import { completePurchase, connectPayproc } from "../helpers/payments";
import { setupBackfillTest } from "../helpers/payments-backfill";
import { stripeId } from "../fakes/stripe-objects";

// The endpoints' session lookup reads Next.js cookies; here the signed-in member is chosen per test.
const session = vi.hoisted(() => ({ claims: null as Claims | null }));
vi.mock("server-only", () => ({}));
vi.mock("@/lib/auth/session", () => ({
  getClaims: async () => session.claims,
  signedIn: async () => session.claims && { claims: session.claims, version: null, renew: false },
  renewIfDue: async () => {},
  WORKSPACE_COOKIE: "crm_workspace",
}));
/** A session signed in with the password just now: fresh for step-up (lib/two-factor/step-up.ts). */
const fresh = (claims: Claims): Claims => ({
  ...claims,
  amr: [{ method: "password", timestamp: Math.floor(Date.now() / 1000) }],
});

const { db, stripe, deps, historic, historicRow, intentOf } = setupBackfillTest();

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
      // node with tsx's loader: one process, not npx's and tsx's wrappers around it
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "scripts/backfill-payments.ts", "--workspace", ws.id],
        {
          env: { ...process.env, ...stripe.fake.env, DATABASE_URL: db.url },
        },
      );
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

describe("the backfill endpoints (spec 4.11, 4.12; their authentication)", () => {
  const KEY = "service-key-for-tests-0123456789";
  const call = (
    route: { GET: (r: Request) => Promise<Response> },
    query: string,
    headers: Record<string, string> = {},
  ) =>
    // a dashboard page's fetch (cookie callers must be same-origin)
    route
      .GET(
        new Request(`http://localhost/api/admin/x?${query}`, {
          headers: { "sec-fetch-site": "same-origin", ...headers },
        }),
      )
      .then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));

  test("backfill authentication: the service key, or a signed-in owner or admin; members, strangers and bad keys are refused", async () => {
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
    session.claims = fresh(member.claims);
    expect(await call(intents, q)).toMatchObject({ status: 403 });
    session.claims = fresh((await createWorkspace(db.sql)).owner.claims);
    expect(await call(intents, q)).toMatchObject({ status: 403 });
    expect(await intentOf(paid.ids[0])).toBeNull();

    const admin = await addMember(db.sql, ws.id, "admin");
    session.claims = admin.claims; // signed in, but not lately: step-up first
    expect(await call(intents, q)).toMatchObject({ status: 403, body: { code: "step_up_required" } });
    expect(await intentOf(paid.ids[0])).toBeNull();
    session.claims = fresh(admin.claims);
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
      body: {
        success: false,
        error: "This workspace has no payment processor connection.",
        code: "conflict",
      },
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
