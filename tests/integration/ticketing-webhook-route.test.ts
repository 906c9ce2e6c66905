import { describe, expect, test } from "vitest";
import { POST } from "@/app/api/webhooks/ticketing/route";
import { GET as retry } from "@/app/api/admin/retry-ticketing-webhooks/route";
import { HANDLERS } from "@/worker/registry";
import { setupTestDatabase } from "../helpers/db";
import { connectToFake, delivery, setupFakeEventbrite, webhookSecretOf } from "../helpers/eventbrite";
import { createWorkspace } from "../helpers/factories";
import { jobsOf, runJob } from "../helpers/jobs";

const db = setupTestDatabase();
const eb = setupFakeEventbrite();

/** As Eventbrite posts it: to the endpoint registered with the connection's secret. */
const post = (body: { config: { webhook_id: string; action?: string } } & Record<string, unknown>) => {
  const secret = encodeURIComponent(webhookSecretOf(body.config.webhook_id) ?? "");
  return POST(
    new Request(`http://crm.test/api/webhooks/ticketing?secret=${secret}`, {
      method: "POST",
      body: JSON.stringify(body),
    }),
  );
};

describe("4.5 POST /api/webhooks/ticketing", () => {
  test("4.5: answers 200 at once with the delivery kept and its job enqueued; the job processes it", async () => {
    const ws = await createWorkspace(db.sql);
    const { webhookId } = await connectToFake(db.sql, eb.fake, ws.id);
    const ebEvent = eb.fake.addEvent();
    const { order } = eb.fake.addOrder({
      eventId: ebEvent.id,
      buyer: { email: "a@example.test" },
      attendees: [{ email: "a@example.test" }],
    });
    const res = await post(delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, duplicate: false });
    const [kept] = await db.sql`select status from webhook_inbox where workspace_id = ${ws.id}`;
    expect(kept.status).toBe("pending");
    expect(await db.sql`select 1 from event_registrations where workspace_id = ${ws.id}`).toHaveLength(0);

    const [job] = await jobsOf(db.sql, ws.id);
    expect(job).toMatchObject({ name: "ticketing-delivery", state: "created" });
    await runJob(HANDLERS["ticketing-delivery"], job);
    expect(await db.sql`select 1 from event_registrations where workspace_id = ${ws.id}`).toHaveLength(1);
    expect((await db.sql`select status from webhook_inbox where workspace_id = ${ws.id}`)[0].status).toBe(
      "done",
    );
  });

  test("refused deliveries get a 4xx and enqueue nothing", async () => {
    const before = await db.sql`select count(*)::int as n from pgboss.job`;
    const unknown = await post({
      api_url: eb.fake.apiUrl("/orders/1/"),
      config: { action: "order.placed", webhook_id: "nope" },
    });
    expect(unknown.status).toBe(403);
    const garbage = await POST(
      new Request("http://crm.test/api/webhooks/ticketing", { method: "POST", body: "{" }),
    );
    expect(garbage.status).toBe(400);
    expect(await db.sql`select count(*)::int as n from pgboss.job`).toEqual(before);
  });

  test("the retry route needs the service key and processes what a crash left undone", async () => {
    process.env.SERVICE_API_KEY = "service-key-for-tests";
    const ws = await createWorkspace(db.sql);
    const { webhookId } = await connectToFake(db.sql, eb.fake, ws.id);
    const ebEvent = eb.fake.addEvent();
    const { order } = eb.fake.addOrder({
      eventId: ebEvent.id,
      buyer: { email: "b@example.test" },
      attendees: [{ email: "b@example.test" }],
    });
    await post(delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`)); // no worker runs here
    await db.sql`update webhook_inbox set received_at = now() - interval '5 minutes' where workspace_id = ${ws.id}`;
    const denied = await retry(
      new Request("http://crm.test/api/admin/retry-ticketing-webhooks", {
        headers: { Authorization: "Bearer wrong" },
      }),
    );
    expect(denied.status).toBe(401);
    const ok = await retry(
      new Request("http://crm.test/api/admin/retry-ticketing-webhooks", {
        headers: { Authorization: "Bearer service-key-for-tests" },
      }),
    );
    expect(ok.status).toBe(200);
    expect((await ok.json()).done).toBeGreaterThanOrEqual(1);
    expect(await db.sql`select 1 from event_registrations where workspace_id = ${ws.id}`).toHaveLength(1);
  });
});
