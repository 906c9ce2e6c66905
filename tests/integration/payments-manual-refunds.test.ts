import { describe, expect, test } from "vitest";
import { withService, withUser } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { getContactTransactions } from "@/lib/payments/get-contact-transactions";
import { recordTransactionRefund } from "@/lib/payments/record-transaction-refund";
import { revertTransactionRefund } from "@/lib/payments/revert-transaction-refund";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace } from "../helpers/factories";
import {
  completePurchase,
  connectPayproc,
  deliver,
  refundAtStripe,
  rowsOf,
  setupStripeFake,
} from "../helpers/payments";

const db = setupTestDatabase();
const stripe = setupStripeFake();

async function buy(amounts: number[]) {
  const ws = await createWorkspace(db.sql);
  const conn = await connectPayproc(db.sql, ws.id);
  const purchase = await completePurchase(stripe.fake, conn, { amounts });
  const rows = await rowsOf(db.sql, purchase);
  const [tag] =
    await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'Refunded') returning id`;
  await db.sql`
    insert into automations (workspace_id, name, trigger_type, action_type, action_config)
    values (${ws.id}, 'tag', 'product_refunded', 'add_tag', ${db.sql.json({ tag_id: tag.id })})`;
  return { ws, purchase, rows, ids: rows.map((r) => r.id as string) };
}

const record = (workspaceId: string, transactionId: string, refundAmount: number, runAutomations = true) =>
  withService((tx) =>
    recordTransactionRefund(tx, { workspaceId, transactionId, refundAmount, runAutomations }),
  );

async function row(id: string) {
  const [r] = await db.sql`select status, amount_refunded from transactions where id = ${id}`;
  return `${r.status}:${r.amount_refunded}`;
}

async function runs(workspaceId: string) {
  const [{ n }] =
    await db.sql`select count(*)::int as n from automation_runs where workspace_id = ${workspaceId}`;
  return n;
}

describe("recordTransactionRefund (spec 4.15, 3.1)", () => {
  test("4.15: an amount of zero or less, or above the remaining balance, is refused and nothing changes", async () => {
    const { ws, ids } = await buy([2500]);
    expect(await record(ws.id, ids[0], 0)).toEqual({
      error: new AppError("invalid", "The refund amount must be greater than zero."),
    });
    expect(await record(ws.id, ids[0], -5)).toHaveProperty("error.code", "invalid");
    expect(await record(ws.id, ids[0], 0.004)).toHaveProperty("error.code", "invalid"); // rounds to 0 cents
    expect(await record(ws.id, ids[0], 25.01)).toEqual({
      error: new AppError("invalid", "The refund cannot be more than the remaining balance of $25.00."),
    });
    expect(await record(ws.id, ids[0], Number.NaN)).toHaveProperty("error.code", "invalid");
    expect(await row(ids[0])).toBe("succeeded:0.00");
  });

  test("3.1: a partial refund stays succeeded; reaching zero makes it refunded and fires product_refunded", async () => {
    const { ws, ids } = await buy([2500, 1000]);
    expect(await record(ws.id, ids[0], 10)).toEqual({ success: true });
    expect(await row(ids[0])).toBe("succeeded:10.00");
    expect(await runs(ws.id)).toBe(0);
    expect(await record(ws.id, ids[0], 15.01)).toHaveProperty("error.code", "invalid");
    expect(await record(ws.id, ids[0], 15)).toEqual({ success: true });
    expect(await row(ids[0])).toBe("refunded:25.00");
    expect(await runs(ws.id)).toBe(1);
    expect(await record(ws.id, ids[0], 1)).toEqual({
      error: new AppError("conflict", "This transaction is already fully refunded."),
    });
  });

  test("6.2: without runAutomations a full manual refund fires no trigger", async () => {
    const { ws, ids } = await buy([1000]);
    expect(await record(ws.id, ids[0], 10, false)).toEqual({ success: true });
    expect(await row(ids[0])).toBe("refunded:10.00");
    expect(await runs(ws.id)).toBe(0);
  });

  test("8.1: the remaining balance is compared in cents (0.10 then 0.20 of 0.30 is a full refund)", async () => {
    const { ws, ids } = await buy([30]);
    expect(await record(ws.id, ids[0], 0.1)).toEqual({ success: true });
    // 0.3 - 0.1 = 0.19999999999999998 in floating point, less than 0.2
    expect(await record(ws.id, ids[0], 0.2)).toEqual({ success: true });
    expect(await row(ids[0])).toBe("refunded:0.30");
  });

  test("3.1: review tasks close only when every sibling row of the intent is fully refunded", async () => {
    const { ws, purchase, ids } = await buy([1000, 2000]);
    await deliver(refundAtStripe(stripe.fake, purchase, 3000 - 1)); // tier 3: 29.99 matches nothing
    const open = () => db.sql`select id from tasks where workspace_id = ${ws.id} and status = 'open'`;
    expect(await open()).toHaveLength(1);
    expect(await record(ws.id, ids[0], 10)).toEqual({ success: true });
    expect(await open()).toHaveLength(1);
    expect(await record(ws.id, ids[1], 20)).toEqual({ success: true });
    expect(await open()).toHaveLength(0);
    const [note] =
      await db.sql`select type, created_by, content_text from notes where type = 'task' and workspace_id = ${ws.id}`;
    expect(note).toEqual({
      type: "task",
      created_by: null,
      content_text: "Automatically closed — all refunds for this transaction have been reconciled.",
    });
  });

  test("5.4: a transaction of another workspace is not found and not changed", async () => {
    const { ids } = await buy([1000]);
    const other = await createWorkspace(db.sql);
    expect(await record(other.id, ids[0], 5)).toEqual({
      error: new AppError("not_found", "Transaction not found."),
    });
    expect(
      await withService((tx) =>
        revertTransactionRefund(tx, { workspaceId: other.id, transactionId: ids[0] }),
      ),
    ).toEqual({
      error: new AppError("not_found", "Transaction not found."),
    });
    expect(await row(ids[0])).toBe("succeeded:0.00");
  });
});

describe("revertTransactionRefund (spec 4.15, 3.1)", () => {
  test("3.1: refunded → succeeded with amount_refunded 0; a partial refund is reverted too; nothing to revert is an error", async () => {
    const { ws, ids } = await buy([1000, 2000]);
    const revert = (id: string) =>
      withService((tx) => revertTransactionRefund(tx, { workspaceId: ws.id, transactionId: id }));
    await record(ws.id, ids[0], 10);
    await record(ws.id, ids[1], 5);
    expect(await revert(ids[0])).toEqual({ success: true });
    expect(await row(ids[0])).toBe("succeeded:0.00");
    expect(await revert(ids[1])).toEqual({ success: true });
    expect(await row(ids[1])).toBe("succeeded:0.00");
    expect(await revert(ids[1])).toEqual({
      error: new AppError("conflict", "This transaction has no refund to revert."),
    });
  });
});

describe("getContactTransactions (spec 4.15)", () => {
  test("4.15: one feed, newest first, of transactions, paid registrations and paid deal payments", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const [product] =
      await db.sql`insert into products (workspace_id, name) values (${ws.id}, 'Course') returning id`;
    await db.sql`
      insert into transactions (workspace_id, contact_id, product_id, amount_paid, currency, status, amount_refunded, transaction_date)
      values (${ws.id}, ${c.id}, ${product.id}, 49.99, 'usd', 'succeeded', 10.00, '2026-01-05T10:00:00Z')`;
    const [event] =
      await db.sql`insert into events (workspace_id, name) values (${ws.id}, 'Gala') returning id`;
    const [free] =
      await db.sql`insert into events (workspace_id, name) values (${ws.id}, 'Free talk') returning id`;
    await db.sql`
      insert into event_registrations (workspace_id, event_id, contact_id, amount_paid, created_at)
      values (${ws.id}, ${event.id}, ${c.id}, 25, '2026-02-01T09:00:00Z'),
             (${ws.id}, ${free.id}, ${c.id}, 0, '2026-03-01T09:00:00Z')`;
    const [deal] =
      await db.sql`insert into deals (workspace_id, contact_id, title) values (${ws.id}, ${c.id}, 'Website') returning id`;
    await db.sql`
      insert into deal_payments (workspace_id, deal_id, label, amount, status, paid_at, created_at)
      values (${ws.id}, ${deal.id}, 'Deposit', 500, 'paid', '2026-01-20T00:00:00Z', '2025-12-01T00:00:00Z'),
             (${ws.id}, ${deal.id}, 'Balance', 1500, 'pending', null, '2026-04-01T00:00:00Z')`;
    const member = await addMember(db.sql, ws.id, "member");
    const feed = await withUser(member.claims, (tx) =>
      getContactTransactions(tx, { workspaceId: ws.id, contactId: c.id }),
    );
    expect(feed.map((i) => [i.kind, i.description, i.amountCents, i.status, i.remainingCents])).toEqual([
      ["event_registration", "Gala", 2500, "registered", 0],
      ["deal_payment", "Website — Deposit", 50000, "paid", 0],
      ["transaction", "Course", 4999, "succeeded", 3999],
    ]);
    const stranger = await createWorkspace(db.sql);
    const hidden = await withUser(stranger.owner.claims, (tx) =>
      getContactTransactions(tx, { workspaceId: ws.id, contactId: c.id }),
    );
    expect(hidden).toEqual([]);
  });
});
