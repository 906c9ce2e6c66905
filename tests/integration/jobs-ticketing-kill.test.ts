import type { ChildProcess } from "node:child_process";
import { describe, expect, test } from "vitest";
import { POST } from "@/app/api/webhooks/ticketing/route";
import type { Sql } from "@/lib/db/client";
import { setupTestDatabase } from "../helpers/db";
import { connectToFake, delivery, setupFakeEventbrite, webhookSecretOf } from "../helpers/eventbrite";
import { createWorkspace } from "../helpers/factories";
import { waitFor } from "../helpers/wait-for";
import { onEmbeddedService } from "../helpers/embedded-harness";
import { setupWorkers } from "../helpers/workers";

// The background-work contract: "a delivery answered just before a SIGKILL is processed within 240 s of
// the restart with no new delivery". The 200 is only sent once the delivery and its job are
// committed together; the process that answered is then killed while its worker is in the
// middle of the Eventbrite fetch; the restarted one finishes the work from the database alone.

const db = setupTestDatabase();
const eb = setupFakeEventbrite();
const workers = setupWorkers(db);

/** The connection tests arrange and assert with: the test database, or the embedded service's. */
let sql: () => Sql = () => db.sql;

const post = (body: ReturnType<typeof delivery>) =>
  POST(
    new Request(
      `http://crm.test/api/webhooks/ticketing?secret=${webhookSecretOf(body.config.webhook_id) ?? ""}`,
      { method: "POST", body: JSON.stringify(body) },
    ),
  );

const registrations = async (workspaceId: string) =>
  (await sql()`select count(*)::int as n from event_registrations where workspace_id = ${workspaceId}`)[0].n;

async function answeredDelivery() {
  const ws = await createWorkspace(sql());
  const { webhookId } = await connectToFake(sql(), eb.fake, ws.id);
  const ebEvent = eb.fake.addEvent();
  const email = `killed-${ws.id.slice(0, 8)}@example.test`;
  const { order } = eb.fake.addOrder({ eventId: ebEvent.id, buyer: { email }, attendees: [{ email }] });
  eb.fake.holdNext = 1; // the worker's first fetch hangs: it is mid-delivery when killed
  const answer = await post(delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`));
  expect(answer.status).toBe(200);
  return ws;
}

/** `workspaceId`: check nothing was registered (not on the embedded database: it died with the process). */
async function killMidFetch(child: ChildProcess, workspaceId?: string) {
  await waitFor(async () => eb.fake.held === 1, "the worker fetching the order", 60_000);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  eb.fake.release();
  if (workspaceId) expect(await registrations(workspaceId)).toBe(0);
}

async function expectProcessedOnce(workspaceId: string, deliveriesBefore: number) {
  const restarted = Date.now();
  await waitFor(
    async () => (await registrations(workspaceId)) === 1,
    "registered after the restart",
    240_000,
  );
  expect(Date.now() - restarted).toBeLessThan(240_000);
  const inbox = await sql()`select status from webhook_inbox where workspace_id = ${workspaceId}`;
  expect(inbox.map((row) => row.status)).toEqual(["done"]); // the one delivery, no new one
  expect(eb.fake.requests.filter((r) => r.path.includes("/orders/")).length).toBeGreaterThan(
    deliveriesBefore,
  );
}

describe("jobs: a delivery answered just before a SIGKILL", () => {
  test("is registered after the restart, from the database alone, with no new delivery", async () => {
    if (db.kind === "pglite") return embedded();
    const first = workers.spawnWorker();
    const ws = await answeredDelivery();
    await killMidFetch(first, ws.id);
    const fetched = eb.fake.requests.filter((r) => r.path.includes("/orders/")).length;
    workers.spawnWorker(); // the restart
    await expectProcessedOnce(ws.id, fetched);
  }, 300_000);
});

/**
 * On the embedded database the worker and PGlite live in one process (npm start), so the kill
 * takes the database with it; the restart opens the same data directory.
 */
function embedded() {
  return onEmbeddedService(
    db,
    workers,
    (conn) => (sql = () => conn),
    async (service) => {
      const first = await service.start();
      const ws = await answeredDelivery();
      await killMidFetch(first);
      await service.detach();
      const fetched = eb.fake.requests.filter((r) => r.path.includes("/orders/")).length;
      await service.start(); // the restart
      await expectProcessedOnce(ws.id, fetched);
    },
  );
}
