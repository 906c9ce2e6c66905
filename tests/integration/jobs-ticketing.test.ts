import { describe, expect, test } from "vitest";
import { POST } from "@/app/api/webhooks/ticketing/route";
import { withService } from "@/lib/db/doors";
import { enqueueTicketingSync } from "@/lib/events/ticketing/enqueue-ticketing-sync";
import { enqueue } from "@/lib/jobs/enqueue";
import { listWorkspaceJobs } from "@/lib/jobs/list-workspace-jobs";
import { retryWorkspaceJob } from "@/lib/jobs/retry-workspace-job";
import { storeDelivery } from "@/lib/webhooks/inbox";
import { setupTestDatabase } from "../helpers/db";
import { connectToFake, delivery, setupFakeEventbrite, webhookSecretOf } from "../helpers/eventbrite";
import { createWorkspace } from "../helpers/factories";
import { jobsOf } from "../helpers/jobs";
import { waitFor } from "../helpers/wait-for";
import { setupWorkers } from "../helpers/workers";

const db = setupTestDatabase();
const eb = setupFakeEventbrite();
const workers = setupWorkers(db);

/** As Eventbrite delivers it: to the endpoint registered with the connection's secret. */
const post = (body: ReturnType<typeof delivery>) =>
  POST(
    new Request(
      `http://crm.test/api/webhooks/ticketing?secret=${webhookSecretOf(body.config.webhook_id) ?? ""}`,
      { method: "POST", body: JSON.stringify(body) },
    ),
  );

async function orderFor(workspaceId: string, email: string) {
  const { webhookId } = await connectToFake(db.sql, eb.fake, workspaceId);
  const ebEvent = eb.fake.addEvent();
  const { order } = eb.fake.addOrder({ eventId: ebEvent.id, buyer: { email }, attendees: [{ email }] });
  return { webhookId, order };
}

const registrations = async (workspaceId: string) =>
  (await db.sql`select count(*)::int as n from event_registrations where workspace_id = ${workspaceId}`)[0].n;

describe("jobs: ticketing deliveries run as jobs", () => {
  test("a delivery whose Eventbrite fetch fails twice is retried by the worker and registered, with no further request", async () => {
    const ws = await createWorkspace(db.sql);
    const { webhookId, order } = await orderFor(ws.id, "retry@example.test");
    await workers.inProcess(["ticketing-delivery"]);
    eb.fake.failNext = 2;
    const res = await post(delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`));
    expect(res.status).toBe(200);

    await waitFor(async () => (await registrations(ws.id)) === 1, "the attendee registered", 90_000);
    const [inbox] =
      await db.sql`select status, attempts, last_error from webhook_inbox where workspace_id = ${ws.id}`;
    expect(inbox).toMatchObject({ status: "done", attempts: 3, last_error: null });
    const orderFetches = eb.fake.requests.filter((r) => r.path.endsWith(`/orders/${order.id}/`));
    expect(orderFetches).toHaveLength(3); // two answered 500, the third 200
    // the registration commits before the worker reports the job done
    await waitFor(async () => (await jobsOf(db.sql, ws.id))[0].state === "completed", "the job completed");
    const [job] = await jobsOf(db.sql, ws.id);
    expect(job).toMatchObject({ name: "ticketing-delivery", state: "completed", retry_count: 2 });
  }, 120_000);

  test("a poison delivery reaches the dead state after its attempts, shows on the jobs page, and the retry button runs it again", async () => {
    const ws = await createWorkspace(db.sql);
    const { webhookId, order } = await orderFor(ws.id, "poison@example.test");
    const body = delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`);
    // two attempts, no delay: the queue's own policy (ten, with backoff) would take an hour
    await withService(async (tx) => {
      const stored = await storeDelivery(tx, {
        provider: "ticketing",
        eventId: `poison-${order.id}`,
        eventType: "order.placed",
        payload: { api_url: body.api_url, config: body.config },
        workspaceId: ws.id,
      });
      await enqueue(tx, {
        queue: "ticketing-delivery",
        data: { workspaceId: ws.id, inboxId: stored.id },
        options: { retryLimit: 1, retryDelay: 0, retryBackoff: false },
      });
    });
    eb.fake.failNext = 1_000_000;
    await workers.inProcess(["ticketing-delivery"]);
    await waitFor(
      async () => (await jobsOf(db.sql, ws.id))[0].state === "failed",
      "the job failed for good",
      60_000,
    );
    const [inbox] =
      await db.sql`select status, attempts, last_error from webhook_inbox where workspace_id = ${ws.id}`;
    expect(inbox.status).toBe("dead");
    expect(inbox.attempts).toBe(2);
    expect(inbox.last_error).toContain("500");

    const listed = await withService((tx) => listWorkspaceJobs(tx, ws.id));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      queue: "ticketing-delivery",
      state: "dead",
      attempts: 2,
      maxAttempts: 2,
    });
    expect(listed[0].error).toContain("500");
    // another workspace sees none of it, and cannot retry it
    const other = await createWorkspace(db.sql);
    expect(await withService((tx) => listWorkspaceJobs(tx, other.id))).toHaveLength(0);
    expect(
      await withService((tx) => retryWorkspaceJob(tx, { workspaceId: other.id, jobId: listed[0].id })),
    ).toBe(false);

    eb.fake.failNext = 0;
    expect(
      await withService((tx) => retryWorkspaceJob(tx, { workspaceId: ws.id, jobId: listed[0].id })),
    ).toBe(true);
    await waitFor(async () => (await registrations(ws.id)) === 1, "registered after the retry", 60_000);
    expect((await db.sql`select status from webhook_inbox where workspace_id = ${ws.id}`)[0].status).toBe(
      "done",
    );
  }, 120_000);

  test("two workers, each handed every delivery twice, register each attendee exactly once", async () => {
    const ws = await createWorkspace(db.sql);
    const { webhookId, order } = await orderFor(ws.id, "twice@example.test");
    const placed = delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`);
    await workers.inProcess(["ticketing-delivery"]);
    await workers.inProcess(["ticketing-delivery"]);
    const answers = await Promise.all([post(placed), post(placed), post(placed), post(placed)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    await waitFor(
      async () => (await jobsOf(db.sql, ws.id)).every((j) => j.state === "completed"),
      "every job done",
      60_000,
    );
    expect(await registrations(ws.id)).toBe(1);
    const [{ n }] = await db.sql`select count(*)::int as n from contacts where workspace_id = ${ws.id}`;
    expect(n).toBe(1);
  }, 120_000);

  test("the Eventbrite import and re-sync run as a job: events and registrations arrive with no request open", async () => {
    const ws = await createWorkspace(db.sql);
    await connectToFake(db.sql, eb.fake, ws.id);
    const ebEvent = eb.fake.addEvent();
    eb.fake.addOrder({
      eventId: ebEvent.id,
      buyer: { email: "sync@example.test" },
      attendees: [{ email: "sync@example.test" }],
    });
    await withService((tx) => enqueueTicketingSync(tx, ws.id));
    await workers.inProcess(["ticketing-sync"]);
    await waitFor(
      async () => (await jobsOf(db.sql, ws.id)).every((j) => j.state === "completed"),
      "the sync job done",
      60_000,
    );
    const [event] =
      await db.sql`select id from events where workspace_id = ${ws.id} and external_event_id = ${ebEvent.id}`;
    expect(event).toBeDefined();
    expect(await registrations(ws.id)).toBe(1);
  }, 120_000);
});
