import { formatInTimeZone } from "date-fns-tz";
import { describe, expect, test } from "vitest";
import { withService, withUser } from "@/lib/db/doors";
import { applyChargeRefund } from "@/lib/payments/refund-engine";
import { SUPERSEDED_CLOSING_REASON } from "@/lib/payments/review-task";
import { completeTask } from "@/lib/tasks/complete-task";
import { listTasks } from "@/lib/tasks/list-tasks";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createUser, createWorkspace } from "../helpers/factories";
import {
  completePurchase,
  connectPayproc,
  deliver,
  refundAtStripe,
  rowsOf,
  setupStripeFake,
} from "../helpers/payments";
import { stripeId } from "../fakes/stripe-objects";

const db = setupTestDatabase();
const stripe = setupStripeFake();

async function setup(opts: { timezone?: string; amounts?: number[] } = {}) {
  const owner = await createUser(db.sql, { timezone: opts.timezone ?? "UTC" });
  const ws = await createWorkspace(db.sql, { owner });
  const conn = await connectPayproc(db.sql, ws.id);
  const purchase = await completePurchase(stripe.fake, conn, {
    items: (opts.amounts ?? [1000, 2000, 3000]).map((amountTotal, i) => ({
      productId: stripeId("prod", 14),
      name: ["T-shirt", "Mug", "Poster"][i] ?? `Item ${i}`,
      amountTotal,
    })),
  });
  return { ws, owner, purchase };
}

async function reviewTasks(workspaceId: string) {
  return db.sql`select * from tasks where workspace_id = ${workspaceId} and kind = 'refund_review' order by created_at, id`;
}

async function taskNotes(taskId: string) {
  return db.sql`select type, created_by, content_text, contact_id from notes where task_id = ${taskId}`;
}

describe("tier 3 review task (spec 4.4)", () => {
  test("4.4: the description lists the purchase date, the products (refunded ones annotated), why, and options A and B", async () => {
    const { ws, owner, purchase } = await setup({ timezone: "America/New_York" });
    await deliver(refundAtStripe(stripe.fake, purchase, 2000)); // tier 2: the Mug
    await deliver(refundAtStripe(stripe.fake, purchase, 700)); // tier 3
    const [task] = await reviewTasks(ws.id);
    const [row] = await rowsOf(db.sql, purchase);
    const date = formatInTimeZone(row.transaction_date, "America/New_York", "MMMM d, yyyy");
    expect(task.title).toBe("Review a refund of $7.00");
    expect(task.description).toBe(
      [
        `A refund of $7.00 was processed in the payment processor for payment ${purchase.paymentIntentId}, and it could not be applied to this purchase automatically.`,
        "",
        `Original purchase date: ${date}`,
        "Products:",
        "- Mug: $20.00 (already refunded)",
        "- Poster: $30.00",
        "- T-shirt: $10.00",
        "",
        "Why it was not applied automatically: $7.00 is less than the $40.00 not yet refunded, and it does not equal the remaining balance of any single product.",
        "",
        "Options:",
        "A: Process an additional refund in the payment processor, so that the refunds add up to whole products; it will then be matched automatically.",
        "B: Record a partial refund on the contact profile, on the product or products this refund was for.",
      ].join("\n"),
    );
    expect(task).toMatchObject({
      status: "open",
      assigned_user_id: owner.id,
      payproc_payment_intent_id: purchase.paymentIntentId,
      contact_id: row.contact_id,
    });
    const [notification] = await db.sql`select * from notifications where workspace_id = ${ws.id}`;
    expect(notification).toMatchObject({ user_id: owner.id, type: "refund_review", action_url: "/tasks" });
  });

  test("4.4: the task goes to the owner, not to an admin or member who joined first", async () => {
    const admin = await createUser(db.sql);
    const owner = await createUser(db.sql);
    const [w] = await db.sql`insert into workspaces (name) values ('Shop') returning id`;
    await db.sql`insert into workspace_members (workspace_id, user_id, role, created_at) values
      (${w.id}, ${admin.id}, 'admin', now() - interval '1 day'), (${w.id}, ${owner.id}, 'owner', now())`;
    await addMember(db.sql, w.id, "member");
    const conn = await connectPayproc(db.sql, w.id);
    const purchase = await completePurchase(stripe.fake, conn, { amounts: [1000, 2000] });
    await deliver(refundAtStripe(stripe.fake, purchase, 500));
    const [task] = await reviewTasks(w.id);
    expect(task.assigned_user_id).toBe(owner.id);
  });

  test.each([
    ["UTC", "2026-03-10T23:30:00Z", "2026-03-11"],
    ["Pacific/Auckland", "2026-03-10T23:30:00Z", "2026-03-12"], // already the 11th there
    ["America/Los_Angeles", "2026-03-11T05:00:00Z", "2026-03-11"], // still the 10th there
    ["Asia/Kolkata", "2026-12-31T19:00:00Z", "2027-01-02"], // past midnight into the new year
  ])(
    "4.4: due 'tomorrow' in the owner's time zone (%s at %s → %s), stored date-only",
    async (tz, now, due) => {
      const { ws, purchase } = await setup({ timezone: tz, amounts: [1000, 2000] });
      const { charge } = stripe.fake.refund(purchase.chargeId!, 300);
      const result = await withService((tx) =>
        applyChargeRefund(tx, {
          workspaceId: ws.id,
          paymentIntentId: purchase.paymentIntentId!,
          chargeRefundedCents: charge.amount_refunded as number,
          runAutomations: true,
          now: new Date(now),
        }),
      );
      expect(result.tier).toBe(3);
      const [task] = await reviewTasks(ws.id);
      expect(task.due_date).toBe(due);
    },
  );
});

describe("closing review tasks (spec 3.6, 4.4)", () => {
  test("3.1 tier 3: a newer review task closes the earlier open one of the intent, with a system task note", async () => {
    const { ws, purchase } = await setup();
    await deliver(refundAtStripe(stripe.fake, purchase, 300));
    await deliver(refundAtStripe(stripe.fake, purchase, 400));
    const [first, second] = await reviewTasks(ws.id);
    expect(first.status).toBe("completed");
    expect(first.completed_at).toBeInstanceOf(Date);
    expect(second).toMatchObject({ status: "open", title: "Review a refund of $7.00" });
    const notes = await taskNotes(first.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ type: "task", created_by: null });
    expect(notes[0].content_text).toMatch(/^Automatically closed — /);
  });

  test("4.4: tier 1 closes open review tasks with the tier 1 reason", async () => {
    const { ws, purchase } = await setup();
    await deliver(refundAtStripe(stripe.fake, purchase, 300));
    await deliver(refundAtStripe(stripe.fake, purchase, 5700));
    const tasks = await reviewTasks(ws.id);
    expect(tasks.map((t) => t.status)).toEqual(["completed"]);
    expect((await taskNotes(tasks[0].id))[0]).toMatchObject({
      type: "task",
      created_by: null,
      content_text:
        "Automatically closed — a full refund was processed in the payment processor for this transaction.",
    });
  });

  test("4.4: tier 2 closes open review tasks with the tier 2 reason", async () => {
    const { ws, purchase } = await setup();
    await deliver(refundAtStripe(stripe.fake, purchase, 300));
    await deliver(refundAtStripe(stripe.fake, purchase, 1700)); // delta 2000: the Mug
    const tasks = await reviewTasks(ws.id);
    expect(tasks.map((t) => t.status)).toEqual(["completed"]);
    expect((await taskNotes(tasks[0].id))[0].content_text).toBe(
      "Automatically closed — all refunds for this transaction have been reconciled.",
    );
  });

  test("4.4: tasks of another intent or workspace stay open", async () => {
    const a = await setup();
    const b = await setup();
    await deliver(refundAtStripe(stripe.fake, a.purchase, 300));
    await deliver(refundAtStripe(stripe.fake, b.purchase, 300));
    await deliver(refundAtStripe(stripe.fake, a.purchase, 5700));
    expect((await reviewTasks(a.ws.id)).map((t) => t.status)).toEqual(["completed"]);
    expect((await reviewTasks(b.ws.id)).map((t) => t.status)).toEqual(["open"]);
  });
});

describe("the engine with automations off (spec 4.12)", () => {
  test("4.12: no review task, no notification and no product_refunded trigger", async () => {
    const { ws, purchase } = await setup();
    await db.sql`
      insert into automations (workspace_id, name, trigger_type, action_type, action_config)
      values (${ws.id}, 'follow up', 'product_refunded', 'create_task', ${db.sql.json({ title: "Call" })})`;
    const run = async (cents: number) => {
      const { charge } = stripe.fake.refund(purchase.chargeId!, cents);
      return withService((tx) =>
        applyChargeRefund(tx, {
          workspaceId: ws.id,
          paymentIntentId: purchase.paymentIntentId!,
          chargeRefundedCents: charge.amount_refunded as number,
          runAutomations: false,
        }),
      );
    };
    expect((await run(300)).tier).toBe(3);
    expect((await run(1700)).tier).toBe(2);
    const [{ tasks }] = await db.sql`select count(*)::int as tasks from tasks where workspace_id = ${ws.id}`;
    const [{ runs }] =
      await db.sql`select count(*)::int as runs from automation_runs where workspace_id = ${ws.id}`;
    const [{ notes }] =
      await db.sql`select count(*)::int as notes from notifications where workspace_id = ${ws.id}`;
    expect({ tasks, runs, notes }).toEqual({ tasks: 0, runs: 0, notes: 0 });
    expect((await rowsOf(db.sql, purchase)).map((r) => r.status)).toEqual([
      "succeeded",
      "refunded",
      "succeeded",
    ]);
  });
});

describe("the tasks dashboard (spec 3.6)", () => {
  test("3.6: open review tasks with description and due date; completing one keeps the member's note", async () => {
    const { ws, owner, purchase } = await setup();
    await deliver(refundAtStripe(stripe.fake, purchase, 300));
    await deliver(refundAtStripe(stripe.fake, purchase, 400)); // supersedes the first
    const member = await addMember(db.sql, ws.id, "member");
    const open = await withUser(member.claims, (tx) => listTasks(tx, { workspaceId: ws.id, status: "open" }));
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      title: "Review a refund of $7.00",
      kind: "refund_review",
      assignee: "Test User",
    });
    expect(open[0].description).toContain("Options:");
    expect(open[0].dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const done = await withUser(member.claims, (tx) =>
      completeTask(tx, {
        workspaceId: ws.id,
        taskId: open[0].id,
        userId: member.id,
        note: "Refunded shipping.",
      }),
    );
    expect(done).toEqual({ success: true });
    const again = await withUser(member.claims, (tx) =>
      completeTask(tx, { workspaceId: ws.id, taskId: open[0].id, userId: member.id }),
    );
    expect(again).toEqual({
      error: expect.objectContaining({
        code: "conflict",
        message: "This task is already completed or no longer exists.",
      }),
    });
    const completed = await withUser(owner.claims, (tx) =>
      listTasks(tx, { workspaceId: ws.id, status: "completed" }),
    );
    expect(completed.map((t) => [t.closingNote, t.closedBySystem])).toEqual([
      ["Completed: Refunded shipping.", false],
      [SUPERSEDED_CLOSING_REASON, true],
    ]);
    const [task] = await db.sql`select status, completed_at from tasks where id = ${open[0].id}`;
    expect(task.status).toBe("completed");
    expect(task.completed_at).toBeInstanceOf(Date);
    const stranger = await createWorkspace(db.sql);
    const hidden = await withUser(stranger.owner.claims, (tx) =>
      listTasks(tx, { workspaceId: ws.id, status: "completed" }),
    );
    expect(hidden).toEqual([]);
  });
});
