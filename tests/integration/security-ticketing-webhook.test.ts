import { describe, expect, test, vi } from "vitest";
import { TICKETING_INBOX_CAP } from "@/lib/events/ticketing/store-ticketing-delivery";
import { setupTestDatabase } from "../helpers/db";
import { connectToFake, delivery, setupFakeEventbrite } from "../helpers/eventbrite";
import { createWorkspace } from "../helpers/factories";

// after() needs Next's request scope: here it only records the work to run after the answer
const afterAnswer = vi.hoisted(() => [] as (() => Promise<void>)[]);
vi.mock("next/server", async (original) => ({
  ...(await original<typeof import("next/server")>()),
  after: (task: () => Promise<void>) => afterAnswer.push(task),
}));

const { POST } = await import("@/app/api/webhooks/ticketing/route");

const db = setupTestDatabase();
const eb = setupFakeEventbrite();

const post = (body: unknown, secret?: string) =>
  POST(
    new Request(
      `http://crm.test/api/webhooks/ticketing${secret === undefined ? "" : `?secret=${encodeURIComponent(secret)}`}`,
      { method: "POST", body: JSON.stringify(body) },
    ),
  );

/** Everything after the answer runs now (processing fetches from Eventbrite). */
async function runAfterAnswer() {
  for (const task of afterAnswer.splice(0)) await task();
}

async function connectedWithOrder() {
  const ws = await createWorkspace(db.sql);
  const { webhookId, secret } = await connectToFake(db.sql, eb.fake, ws.id);
  const ebEvent = eb.fake.addEvent();
  const { order } = eb.fake.addOrder({
    eventId: ebEvent.id,
    buyer: { email: "buyer@example.test" },
    attendees: [{ email: "buyer@example.test" }],
  });
  return { ws, webhookId, secret, order };
}

const inboxOf = (workspaceId: string) =>
  db.sql`select event_type, status from webhook_inbox where workspace_id = ${workspaceId}`;

describe("ticketing webhook authenticated by webhook_id alone: the ticketing webhook is authenticated by its secret, not by webhook_id", () => {
  test("a ticketing delivery without the secret is refused and nothing is fetched from Eventbrite", async () => {
    const { ws, webhookId, order } = await connectedWithOrder();
    afterAnswer.length = 0;
    const fetchedBefore = eb.fake.requests.length;
    const res = await post(delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`));
    expect(res.status).toBe(403);
    await runAfterAnswer();
    expect(eb.fake.requests.length).toBe(fetchedBefore);
    expect(await inboxOf(ws.id)).toHaveLength(0);
    expect(await db.sql`select 1 from event_registrations where workspace_id = ${ws.id}`).toHaveLength(0);
  });

  test("unknown id, wrong secret, missing secret and a foreign api_url get the same status and body", async () => {
    const { ws, webhookId, secret, order } = await connectedWithOrder();
    const good = delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`);
    const refusals = [
      await post(delivery(eb.fake, "wh_unknown", "order.placed", `/orders/${order.id}/`), secret),
      await post(good, "not-the-secret"),
      await post(good, ""),
      await post(good),
      await post({ ...good, api_url: `https://attacker.example/v3/orders/${order.id}/` }, secret),
    ];
    const answers = await Promise.all(
      refusals.map(async (r) => ({ status: r.status, body: await r.text() })),
    );
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0].status).toBe(403);
    expect(JSON.parse(answers[0].body)).toEqual({
      success: false,
      error: "This delivery is not accepted.",
      code: "forbidden",
    });
    expect(await inboxOf(ws.id)).toHaveLength(0);

    const accepted = await post(good, secret);
    expect(accepted.status).toBe(200);
    expect(await inboxOf(ws.id)).toHaveLength(1);
  });

  test("a connection without a secret digest (made before this change) accepts nothing", async () => {
    const { ws, webhookId, secret, order } = await connectedWithOrder();
    await db.sql`update ticketing_connections set webhook_secret_hash = null where workspace_id = ${ws.id}`;
    const [row] =
      await db.sql`select webhook_secured from ticketing_connections where workspace_id = ${ws.id}`;
    expect(row.webhook_secured).toBe(false); // the settings page asks to reconnect
    const res = await post(delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`), secret);
    expect(res.status).toBe(403);
  });

  test("order.refunded and attendee.updated are deduplicated while one of them waits", async () => {
    const { ws, webhookId, secret, order } = await connectedWithOrder();
    afterAnswer.length = 0;
    const refunded = delivery(eb.fake, webhookId, "order.refunded", `/orders/${order.id}/`);
    for (let i = 0; i < 5; i++) expect((await post(refunded, secret)).status).toBe(200);
    const attendee = delivery(eb.fake, webhookId, "attendee.updated", `/events/1/attendees/2/`);
    for (let i = 0; i < 3; i++) expect((await post(attendee, secret)).status).toBe(200);
    const rows = await inboxOf(ws.id);
    expect(rows.map((r) => r.event_type).sort()).toEqual(["attendee.updated", "order.refunded"]);
    // once the waiting one is done, a later change is kept again
    await db.sql`update webhook_inbox set status = 'done' where workspace_id = ${ws.id}`;
    expect((await post(refunded, secret)).status).toBe(200);
    expect(await inboxOf(ws.id)).toHaveLength(3);
    afterAnswer.length = 0;
  });

  test("a connection's stored-but-unprocessed deliveries are capped", async () => {
    const { ws, webhookId, secret, order } = await connectedWithOrder();
    await db.sql`
      insert into webhook_inbox (provider, event_id, event_type, workspace_id, payload)
      select 'ticketing', 'backlog-' || ${ws.id}::text || '-' || g, 'order.placed', ${ws.id}, '{}'::jsonb
      from generate_series(1, ${TICKETING_INBOX_CAP}) g`;
    afterAnswer.length = 0;
    const res = await post(delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`), secret);
    expect(res.status).toBe(429);
    expect((await inboxOf(ws.id)).length).toBe(TICKETING_INBOX_CAP);
    afterAnswer.length = 0;
  });
});
