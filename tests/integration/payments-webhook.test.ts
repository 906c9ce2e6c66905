import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import {
  deletePayprocConnection,
  savePayprocConnection,
  savePayprocSettings,
} from "@/lib/payments/save-payproc-connection";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createWorkspace } from "../helpers/factories";
import { connectPayproc, deliver, makePurchase, rowsOf, setupStripeFake } from "../helpers/payments";
import { milestone } from "../helpers/wait-for";

const db = setupTestDatabase();
const stripe = setupStripeFake();

describe("POST /api/webhooks/payproc: signature and workspace (spec 4.4 step 1)", () => {
  test("a bad signature answers 400 and stores nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id);
    const p = makePurchase(stripe.fake, conn);
    const forged = p.event.header.replace(/v1=[0-9a-f]+/, `v1=${"0".repeat(64)}`);
    expect((await deliver(p.event, forged)).status).toBe(400);
    expect((await deliver(p.event, "")).status).toBe(400);
    const tampered = { ...p.event, payload: p.event.payload.replace("Ada Lovelace", "Eve Mallory") };
    expect((await deliver(tampered)).status).toBe(400);
    const [{ n }] =
      await db.sql`select count(*)::int as n from webhook_inbox where event_id = ${p.event.event.id as string}`;
    expect(n).toBe(0);
    const [{ t }] = await db.sql`select count(*)::int as t from transactions where workspace_id = ${ws.id}`;
    expect(t).toBe(0);
  });

  test("4.4 step 1: an event without an account goes to the single connection of its live mode", async () => {
    // this file's other connections are test mode with accounts; live mode has exactly one
    const ws = await createWorkspace(db.sql);
    await connectPayproc(db.sql, ws.id, { account: "acct_fallbackWs1", livemode: true });
    // a platform event (no connected account), e.g. from `stripe trigger` in development
    const p = makePurchase(stripe.fake, { account: null }, { livemode: true, amounts: [500] });
    expect(p.event.event.account).toBeUndefined();
    expect(p.event.event.livemode).toBe(true);
    expect((await deliver(p.event)).status).toBe(200);
    const rows = await rowsOf(db.sql, p);
    expect(rows.map((r) => r.workspace_id)).toEqual([ws.id]);
    // the session lives on the platform: no Stripe-Account header
    const fetched = stripe.fake.requests.filter((r) => r.path.includes(p.sessionId));
    expect(fetched.map((r) => r.account)).toEqual([null]);
  });

  test("4.4 step 1: no fallback when several connections share the live mode; an unknown account is ignored", async () => {
    const a = await createWorkspace(db.sql);
    const b = await createWorkspace(db.sql);
    await connectPayproc(db.sql, a.id, { account: null, livemode: false });
    await connectPayproc(db.sql, b.id, { account: null, livemode: false });
    const ambiguous = makePurchase(stripe.fake, { account: null }, { livemode: false });
    expect((await deliver(ambiguous.event)).body).toMatchObject({
      received: true,
      ignored: expect.any(String),
    });
    const unknown = makePurchase(stripe.fake, { account: "acct_unknown123" });
    const reply = await deliver(unknown.event);
    expect(reply).toMatchObject({ status: 200, body: { received: true, ignored: expect.any(String) } });
    const [{ n }] = await db.sql`
      select count(*)::int as n from transactions
      where external_payproc_transaction_id like ${ambiguous.sessionId + "%"} or external_payproc_transaction_id like ${unknown.sessionId + "%"}`;
    expect(n).toBe(0);
    const inbox = await db.sql`
      select status from webhook_inbox where event_id in ${db.sql([ambiguous.event.event.id as string, unknown.event.event.id as string])}`;
    expect(inbox.map((r) => r.status)).toEqual(["ignored", "ignored"]);
  });

  test("a Stripe failure while fetching line items answers 500, and Stripe's retry of the event is processed", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id);
    const p = makePurchase(stripe.fake, conn, { amounts: [700] });
    stripe.fake.failNext(`/v1/checkout/sessions/${p.sessionId}/line_items`, 500, 5);
    expect((await deliver(p.event)).status).toBe(500);
    const [failed] =
      await db.sql`select status, attempts from webhook_inbox where event_id = ${p.event.event.id as string}`;
    expect(failed.status).toBe("failed");
    stripe.fake.clearFailures();
    const retry = await deliver(p.event);
    expect(retry.status).toBe(200);
    expect(await rowsOf(db.sql, p)).toHaveLength(1);
  });
});

describe("POST /api/webhooks/payproc: the durable inbox (spec 6.1)", () => {
  test.runIf(process.env.TEST_DB === "postgres")(
    "a delivery that finds the event held by another delivery answers 409 and changes nothing; Stripe's later delivery is processed",
    async () => {
      const ws = await createWorkspace(db.sql);
      const conn = await connectPayproc(db.sql, ws.id);
      const p = makePurchase(stripe.fake, conn, { amounts: [1500] });
      const eventId = p.event.event.id as string;
      // a first delivery that failed leaves the event in the inbox, to be processed again
      stripe.fake.failNext(`/v1/checkout/sessions/${p.sessionId}/line_items`, 500, 5);
      expect((await deliver(p.event)).status).toBe(500);
      stripe.fake.clearFailures();

      // another worker holds the row (as a concurrent delivery does while it processes it)
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const locked = milestone();
      const holding = db.sql.begin(async (tx) => {
        await tx`select id from webhook_inbox where event_id = ${eventId} for update`;
        locked.reached();
        await held;
      });
      try {
        await Promise.race([locked.passed, holding]); // the row is held
        const busy = await deliver(p.event);
        expect(busy).toEqual({
          status: 409,
          body: {
            success: false,
            error: "The event is being processed by another delivery; it will be retried.",
            code: "conflict",
          },
        });
        expect(await rowsOf(db.sql, p)).toHaveLength(0);
      } finally {
        release();
        await holding;
      }
      const [before] = await db.sql`select status, attempts from webhook_inbox where event_id = ${eventId}`;
      expect(before).toEqual({ status: "failed", attempts: 0 }); // attempts count claims

      expect((await deliver(p.event)).status).toBe(200);
      expect(await rowsOf(db.sql, p)).toHaveLength(1);
      const [after] = await db.sql`select status, attempts from webhook_inbox where event_id = ${eventId}`;
      expect(after).toEqual({ status: "done", attempts: 1 });
    },
  );
});

describe("connection settings (spec 2.10, 5.4)", () => {
  test("2.10: owners and admins save the connection; members cannot; an account belongs to one workspace", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, ws.id, "admin");
    const member = await addMember(db.sql, ws.id, "member");
    const input = { workspaceId: ws.id, payprocAccountId: "acct_settings1", livemode: true };
    expect(await withUser(admin.claims, (tx) => savePayprocConnection(tx, input))).toMatchObject({
      data: { workspace_id: ws.id, payproc_account_id: "acct_settings1", livemode: true },
    });
    const updated = await withUser(ws.owner.claims, (tx) =>
      savePayprocSettings(tx, { workspaceId: ws.id, autoSubscribePurchasers: true }),
    );
    expect(updated).toEqual({ data: { updated: true } });
    await expect(
      withUser(member.claims, (tx) =>
        savePayprocConnection(tx, { ...input, payprocAccountId: "acct_member" }),
      ),
    ).rejects.toThrow();
    const other = await createWorkspace(db.sql);
    // the refusal does not say that another workspace holds the account
    expect(
      await withUser(other.owner.claims, (tx) =>
        savePayprocConnection(tx, { ...input, workspaceId: other.id }),
      ),
    ).toEqual({ error: new AppError("conflict") });
    const rows =
      await db.sql`select workspace_id, payproc_account_id, auto_subscribe_purchasers from payproc_connections where payproc_account_id like 'acct_settings%' or payproc_account_id = 'acct_member'`;
    expect(rows).toEqual([
      { workspace_id: ws.id, payproc_account_id: "acct_settings1", auto_subscribe_purchasers: true },
    ]);
    await withUser(admin.claims, (tx) => deletePayprocConnection(tx, ws.id));
    const [{ n }] =
      await db.sql`select count(*)::int as n from payproc_connections where workspace_id = ${ws.id}`;
    expect(n).toBe(0);
  });
});
