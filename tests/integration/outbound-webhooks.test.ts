import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { withUser } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { createWebhookEndpoint } from "@/lib/webhooks/outbound/create-webhook-endpoint";
import { deliverDueWebhooks } from "@/lib/webhooks/outbound/flows/deliver-due-webhooks";
import { replayWebhookDelivery, sendWebhookTestEvent } from "@/lib/webhooks/outbound/replay-webhook-delivery";
import { rotateWebhookSecret } from "@/lib/webhooks/outbound/rotate-webhook-secret";
import { webhookEndpointSchema } from "@/lib/webhooks/outbound/schemas";
import type { WebhookEventType } from "@/lib/webhooks/outbound/event-types";
import { webhookPayloadSchema } from "@/lib/webhooks/outbound/payloads";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
let receiver: Server;
let receiverUrl: string;
let received: Received[] = [];
let statuses: number[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.statusCode = statuses.shift() ?? 200;
      res.end(res.statusCode === 200 ? "thanks" : "receiver error");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));
beforeEach(async () => {
  received = [];
  statuses = [];
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS", "1"); // the receiver is on this machine
  await db.sql`delete from webhook_endpoints`; // each test's endpoints only
});

async function endpoint(ws: TestWorkspace, eventTypes: WebhookEventType[], url = receiverUrl) {
  const input = webhookEndpointSchema.parse({ url, description: "", eventTypes, enabled: true });
  const { data } = await withUser(ws.owner.claims, (tx) =>
    createWebhookEndpoint(tx, { ...input, workspaceId: ws.id }),
  );
  return data;
}

const deliveries = (endpointId: string) =>
  db.sql`select * from webhook_deliveries where endpoint_id = ${endpointId} order by created_at, id`;

describe("outbound webhooks: one event per committed change", () => {
  test("a committed change delivers exactly one signed event that verifies with the receiver library", async () => {
    const ws = await createWorkspace(db.sql);
    const { id, secret } = await endpoint(ws, ["contact.created"]);
    const { id: contactId } = await createContact(db.sql, ws.id, { email: "ada@example.test" });
    expect(await deliverDueWebhooks()).toBe(1);
    expect(await deliverDueWebhooks()).toBe(0);
    expect(received).toHaveLength(1);
    const event = new Webhook(secret).verify(received[0].body, received[0].headers as Record<string, string>);
    expect(event).toMatchObject({
      type: "contact.created",
      api_version: "2026-11-23",
      workspace_id: ws.id,
      data: { id: contactId, email: "ada@example.test" },
    });
    const [row] = await deliveries(id);
    expect(row).toMatchObject({
      status: "succeeded",
      attempts: 1,
      last_status_code: 200,
      event_type: "contact.created",
    });
    expect(received[0].headers["webhook-id"]).toBe(row.message_id);
  });

  test("a rolled-back change delivers none", async () => {
    const ws = await createWorkspace(db.sql);
    const { id } = await endpoint(ws, ["contact.created"]);
    await expect(
      withUser(ws.owner.claims, async (tx) => {
        await tx`insert into contacts (workspace_id, email) values (${ws.id}, 'gone@example.test')`;
        throw new Error("the action failed after the insert");
      }),
    ).rejects.toThrow("the action failed");
    expect(await deliveries(id)).toHaveLength(0);
    expect(await deliverDueWebhooks()).toBe(0);
    expect(received).toHaveLength(0);
  });

  test("a receiver that answers 500 twice gets the event on the third attempt, with the same webhook-id", async () => {
    const ws = await createWorkspace(db.sql);
    const { id } = await endpoint(ws, ["contact.created"]);
    await createContact(db.sql, ws.id);
    statuses = [500, 500];
    await deliverDueWebhooks();
    let [row] = await deliveries(id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, last_status_code: 500 });
    expect(row.last_response_excerpt).toBe("receiver error");
    expect(row.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + 20_000); // backs off: not due yet
    expect(await deliverDueWebhooks()).toBe(0);
    for (let attempt = 2; attempt <= 3; attempt++) {
      await db.sql`update webhook_deliveries set next_attempt_at = now() where endpoint_id = ${id}`; // the wait passes
      await deliverDueWebhooks();
    }
    [row] = await deliveries(id);
    expect(row).toMatchObject({ status: "succeeded", attempts: 3, last_status_code: 200 });
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([row.message_id]));
  });

  test("after about a day of failed attempts a delivery is failed; an endpoint failing for days is disabled and its owners told once", async () => {
    const ws = await createWorkspace(db.sql);
    const second = await addMember(db.sql, ws.id, "owner");
    const { id } = await endpoint(ws, ["contact.created"]);
    await createContact(db.sql, ws.id);
    statuses = Array(20).fill(503);
    for (let i = 0; i < 12; i++) {
      await db.sql`update webhook_deliveries set next_attempt_at = now() where endpoint_id = ${id} and status = 'pending'`;
      await deliverDueWebhooks();
    }
    const [row] = await deliveries(id);
    expect(row).toMatchObject({ status: "failed", attempts: 10 }); // 1 + 9 retries over about a day
    expect((await db.sql`select enabled from webhook_endpoints where id = ${id}`)[0].enabled).toBe(true);
    // the endpoint has failed for more than three days when the next delivery fails
    await db.sql`update webhook_endpoints set failing_since = now() - interval '4 days' where id = ${id}`;
    await createContact(db.sql, ws.id);
    await deliverDueWebhooks();
    const [ep] = await db.sql`select enabled, disabled_reason from webhook_endpoints where id = ${id}`;
    expect(ep.enabled).toBe(false);
    expect(ep.disabled_reason).toContain("3 days");
    const told =
      await db.sql`select user_id from notifications where workspace_id = ${ws.id} and type = 'webhook_endpoint_disabled'`;
    expect(told.map((n) => n.user_id).sort()).toEqual([ws.owner.id, second.id].sort());
    // a disabled endpoint gets no new events
    await createContact(db.sql, ws.id);
    expect(await deliveries(id)).toHaveLength(2);
  });

  test("each event type is written by the change it names, to the endpoints that chose it only", async () => {
    const ws = await createWorkspace(db.sql);
    const all = await endpoint(ws, [
      "contact.updated",
      "contact.subscribed",
      "contact.unsubscribed",
      "contact.suppressed",
      "contact.deleted",
      "transaction.created",
      "transaction.refunded",
      "event_registration.created",
      "event_registration.cancelled",
      "rsvp.created",
      "form.submitted",
      "form.verified",
    ]);
    const other = await createWorkspace(db.sql);
    const foreign = await endpoint(other, ["contact.updated", "contact.deleted"]);
    const { id: contactId } = await createContact(db.sql, ws.id);
    await db.sql`update contacts set first_name = 'Grace' where id = ${contactId}`;
    await db.sql`update contacts set is_subscribed = true, unsubscribed_at = null where id = ${contactId}`;
    await db.sql`update contacts set unsubscribed_at = now() where id = ${contactId}`;
    await db.sql`insert into contact_suppressions (workspace_id, contact_id, reason) values (${ws.id}, ${contactId}, 'manual')`;
    const [tx] =
      await db.sql`insert into transactions (workspace_id, contact_id, amount_paid, external_payproc_transaction_id)
                              values (${ws.id}, ${contactId}, 20, ${`cs_test_${contactId}_prod_1`}) returning id`;
    await db.sql`update transactions set amount_refunded = 5 where id = ${tx.id}`;
    const [ev] =
      await db.sql`insert into events (workspace_id, name) values (${ws.id}, 'Launch') returning id`;
    const [reg] = await db.sql`insert into event_registrations (workspace_id, event_id, contact_id)
                               values (${ws.id}, ${ev.id}, ${contactId}) returning id`;
    await db.sql`update event_registrations set status = 'cancelled' where id = ${reg.id}`;
    const [form] =
      await db.sql`insert into forms (workspace_id, name) values (${ws.id}, 'Newsletter') returning id`;
    await db.sql`insert into pending_form_submissions (workspace_id, form_id, email, payload, token)
                 values (${ws.id}, ${form.id}, 'p@example.test', '{"email":"p@example.test"}', ${`t-${contactId}`})`;
    await db.sql`insert into form_submissions (workspace_id, form_id, contact_id, payload, submission_type)
                 values (${ws.id}, ${form.id}, ${contactId}, '{"email":"x@example.test"}', 'direct'),
                        (${ws.id}, ${form.id}, ${contactId}, '{"email":"x@example.test"}', 'verified_email')`;
    await db.sql`delete from contacts where id = ${contactId}`;
    const types = (await deliveries(all.id)).map((d) => d.event_type).sort();
    expect(types).toEqual(
      [
        "contact.updated",
        "contact.subscribed",
        "contact.unsubscribed",
        "contact.suppressed",
        "transaction.created",
        "transaction.refunded",
        "event_registration.created",
        "rsvp.created",
        "event_registration.cancelled",
        "contact.deleted",
        "form.submitted",
        "form.submitted",
        "form.verified",
      ].sort(),
    );
    // what the triggers write is what the API reference documents
    for (const d of await deliveries(all.id))
      expect(() => webhookPayloadSchema(d.event_type).parse(d.payload)).not.toThrow();
    expect(await deliveries(foreign.id)).toHaveLength(0);
  });
});

describe("outbound webhooks: destination safety", () => {
  test("an endpoint resolving to 127.0.0.1 or 169.254.169.254 is refused", async () => {
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS", "0");
    for (const url of ["http://127.0.0.1:9/x", "http://169.254.169.254/latest/meta-data"])
      expect(
        webhookEndpointSchema.safeParse({
          url,
          description: "",
          eventTypes: ["contact.created"],
          enabled: true,
        }).success,
      ).toBe(false);
    // a name saved while it resolved elsewhere, resolving to loopback at delivery time, is refused then
    const ws = await createWorkspace(db.sql);
    const port = (receiver.address() as AddressInfo).port;
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS", "1");
    const { id } = await endpoint(ws, ["contact.created"], `http://localhost:${port}/hooks`);
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS", "0");
    await createContact(db.sql, ws.id);
    await deliverDueWebhooks();
    const [row] = await deliveries(id);
    expect(row).toMatchObject({ status: "failed", attempts: 1, last_status_code: null });
    expect(received).toHaveLength(0);
  });
});

describe("outbound webhooks: owners and admins only; the secret is never read back", () => {
  test("members see no endpoint or delivery, nobody reads the secret, and no member writes a delivery", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const admin = await addMember(db.sql, ws.id, "admin");
    const { id, secret } = await endpoint(ws, ["contact.created"]);
    await createContact(db.sql, ws.id);
    expect(await withUser(member.claims, (tx) => tx`select id from webhook_endpoints`)).toHaveLength(0);
    expect(await withUser(member.claims, (tx) => tx`select id from webhook_deliveries`)).toHaveLength(0);
    expect(await withUser(admin.claims, (tx) => tx`select id from webhook_deliveries`)).toHaveLength(1);
    await expect(
      withUser(admin.claims, (tx) => tx`select secret_ciphertext from webhook_endpoints`),
    ).rejects.toThrow(/permission denied/);
    const [stored] = await db.sql`select secret_ciphertext from webhook_endpoints where id = ${id}`;
    expect(stored.secret_ciphertext).not.toContain(secret.slice(6));
    await expect(
      withUser(
        admin.claims,
        (tx) =>
          tx`insert into webhook_deliveries (workspace_id, endpoint_id, event_type, payload) values (${ws.id}, ${id}, 'contact.created', '{}')`,
      ),
    ).rejects.toThrow(/permission denied/);
  });

  test("a replay resends the same message to the same endpoint; another workspace's admin cannot replay it", async () => {
    const ws = await createWorkspace(db.sql);
    const { id, secret } = await endpoint(ws, ["contact.created"]);
    await createContact(db.sql, ws.id);
    await deliverDueWebhooks();
    const [first] = await deliveries(id);
    const stranger = await createWorkspace(db.sql);
    expect(
      await withUser(stranger.owner.claims, (tx) => replayWebhookDelivery(tx, { deliveryId: first.id })),
    ).toEqual({
      error: new AppError("not_found", "This delivery does not exist or you cannot replay it."),
    });
    const replay = await withUser(ws.owner.claims, (tx) =>
      replayWebhookDelivery(tx, { deliveryId: first.id }),
    );
    expect(replay).toEqual({ data: { id: expect.any(String) } });
    const { data: rotated } = (await withUser(ws.owner.claims, (tx) =>
      rotateWebhookSecret(tx, { workspaceId: ws.id, endpointId: id }),
    )) as { data: { secret: string } };
    await deliverDueWebhooks();
    expect(received).toHaveLength(2);
    expect(received[1].body).toBe(received[0].body);
    expect(received[1].headers["webhook-id"]).toBe(first.message_id);
    // signed with the secret in force when sent: the rotated one
    expect(() =>
      new Webhook(rotated.secret).verify(received[1].body, received[1].headers as Record<string, string>),
    ).not.toThrow();
    expect(() =>
      new Webhook(secret).verify(received[1].body, received[1].headers as Record<string, string>),
    ).toThrow();
  });

  test("send test event: a webhook.test message reaches the endpoint", async () => {
    const ws = await createWorkspace(db.sql);
    const { id, secret } = await endpoint(ws, ["contact.created"]);
    await withUser(ws.owner.claims, (tx) => sendWebhookTestEvent(tx, { endpointId: id }));
    await deliverDueWebhooks();
    const event = new Webhook(secret).verify(received[0].body, received[0].headers as Record<string, string>);
    expect(event).toMatchObject({ type: "webhook.test", data: { endpoint_id: id } });
  });
});

describe('outbound webhooks: one tenant cannot stall the others (docs/decisions.md, "One delivery\'s failure is its own")', () => {
  test("an endpoint whose secret cannot be opened fails alone: another workspace's deliveries in the same batch are recorded as sent", async () => {
    const poisoned = await createWorkspace(db.sql);
    const healthy = await createWorkspace(db.sql);
    const bad = await endpoint(poisoned, ["contact.created"]);
    const good = await endpoint(healthy, ["contact.created"]);
    await db.sql`update webhook_endpoints set secret_ciphertext = 'not-a-ciphertext' where id = ${bad.id}`;
    await createContact(db.sql, poisoned.id);
    await createContact(db.sql, healthy.id);
    expect(await deliverDueWebhooks()).toBe(2);
    const [sent] = await deliveries(good.id);
    expect(sent).toMatchObject({ status: "succeeded", attempts: 1, last_status_code: 200 });
    const [failed] = await deliveries(bad.id);
    expect(failed).toMatchObject({ status: "pending", attempts: 1, last_status_code: null });
    expect(failed.last_response_excerpt).toBe("The delivery could not be attempted.");
    expect(failed.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + 20_000); // its own backoff
    expect(received).toHaveLength(1);
  });

  test("an admin's own JWT cannot write an endpoint's secret: insert and update are refused and nothing changes", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, ws.id, "admin");
    const { id } = await endpoint(ws, ["contact.created"]);
    const [before] = await db.sql`select secret_ciphertext from webhook_endpoints where id = ${id}`;
    await expect(
      withUser(
        admin.claims,
        (tx) => tx`update webhook_endpoints set secret_ciphertext = 'garbage' where id = ${id}`,
      ),
    ).rejects.toThrow(/permission denied/);
    await expect(
      withUser(
        admin.claims,
        (tx) =>
          tx`insert into webhook_endpoints (workspace_id, url, event_types, secret_ciphertext) values (${ws.id}, ${receiverUrl}, '{contact.created}', 'garbage')`,
      ),
    ).rejects.toThrow(/permission denied/);
    const rows =
      await db.sql`select id, secret_ciphertext from webhook_endpoints where workspace_id = ${ws.id}`;
    expect(rows).toEqual([{ id, secret_ciphertext: before.secret_ciphertext }]);
    // the app's own paths still work for the admin: rotate through the service path
    const { data } = await withUser(admin.claims, (tx) =>
      rotateWebhookSecret(tx, { workspaceId: ws.id, endpointId: id }),
    ).then((r) => r as { data: { secret: string } });
    expect(data.secret).toMatch(/^whsec_/);
  });
});
