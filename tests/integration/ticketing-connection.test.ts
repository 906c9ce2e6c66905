import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { withService } from "@/lib/db/doors";
import { signValue } from "@/lib/auth/tokens";
import { TICKETING_OAUTH_PURPOSE } from "@/lib/events/ticketing/complete-ticketing-connection";
import { completeTicketingConnection } from "@/lib/events/ticketing/flows/complete-ticketing-connection";
import { disconnectTicketing } from "@/lib/events/ticketing/flows/disconnect-ticketing";
import { AppError } from "@/lib/errors/app-error";
import { runTicketingSync } from "@/lib/events/ticketing/flows/run-ticketing-sync";
import { setupTestDatabase } from "../helpers/db";
import { refusal } from "../helpers/refusal";
import { connectToFake, registrationAutomation, setupFakeEventbrite } from "../helpers/eventbrite";
import { addMember, createContact, createWorkspace } from "../helpers/factories";
import { jobsOf } from "../helpers/jobs";
import { transactionOpen } from "../helpers/wait-for";
import { freeClass, paidClass } from "../fakes/eventbrite";

const db = setupTestDatabase();
const eb = setupFakeEventbrite();

const stateFor = (workspaceId: string, userId: string) =>
  signValue(TICKETING_OAUTH_PURPOSE, { workspaceId, userId });

describe("4.5 OAuth connection flow: GET /api/auth/ticketing/callback", () => {
  test("a good state: token exchanged, organisation found, one webhook for the three actions, connection stored", async () => {
    const ws = await createWorkspace(db.sql);
    const state = await stateFor(ws.id, ws.owner.id);
    const result = await completeTicketingConnection({
      workspaceId: ws.id,
      userId: ws.owner.id,
      code: eb.fake.issueCode(),
      state,
    });
    expect(result).toEqual({ data: { organizationName: eb.fake.organization.name } });
    // the first import is enqueued with the connection
    expect((await jobsOf(db.sql, ws.id)).map((j) => j.name)).toEqual(["ticketing-sync"]);
    const [row] = await db.sql`select * from ticketing_connections where workspace_id = ${ws.id}`;
    expect(row).toMatchObject({
      organization_id: eb.fake.organization.id,
      organization_name: eb.fake.organization.name,
    });
    expect(eb.fake.tokens.has(row.access_token)).toBe(true);
    const hook = eb.fake.webhooks.get(row.webhook_id);
    expect(hook).toMatchObject({ actions: "order.placed,order.refunded,attendee.updated" });
    // the endpoint carries a random secret; the connection keeps its SHA-256 only
    const endpoint = new URL(String(hook!.endpoint_url));
    expect(`${endpoint.origin}${endpoint.pathname}`).toBe("http://crm.test/api/webhooks/ticketing");
    const secret = endpoint.searchParams.get("secret")!;
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(row.webhook_secret_hash).toBe(createHash("sha256").update(secret).digest("hex"));
  });

  test("a forged state, or one signed for another workspace or member, stores nothing and never exchanges the code", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    const tokenCalls = () => eb.fake.requests.filter((r) => r.path === "/oauth/token").length;
    const before = tokenCalls();
    const forged = [
      "not-a-token",
      await stateFor(other.id, ws.owner.id),
      await stateFor(ws.id, other.owner.id),
      await signValue("another-purpose", { workspaceId: ws.id, userId: ws.owner.id }),
    ];
    for (const state of forged) {
      const result = await completeTicketingConnection({
        workspaceId: ws.id,
        userId: ws.owner.id,
        code: eb.fake.issueCode(),
        state,
      });
      expect(refusal(result)?.code).toBe("invalid");
    }
    expect(tokenCalls()).toBe(before);
    expect(await db.sql`select 1 from ticketing_connections where workspace_id = ${ws.id}`).toHaveLength(0);
  });

  test("reconnecting replaces the connection and removes the previous webhook; disconnect removes webhook and row", async () => {
    const ws = await createWorkspace(db.sql);
    const connect = async () =>
      completeTicketingConnection({
        workspaceId: ws.id,
        userId: ws.owner.id,
        code: eb.fake.issueCode(),
        state: await stateFor(ws.id, ws.owner.id),
      });
    await connect();
    const [first] = await db.sql`select webhook_id from ticketing_connections where workspace_id = ${ws.id}`;
    await connect();
    const rows = await db.sql`select webhook_id from ticketing_connections where workspace_id = ${ws.id}`;
    expect(rows).toHaveLength(1);
    expect(rows[0].webhook_id).not.toBe(first.webhook_id);
    expect(eb.fake.webhooks.has(first.webhook_id)).toBe(false);
    expect(eb.fake.webhooks.has(rows[0].webhook_id)).toBe(true);

    const result = await disconnectTicketing({ workspaceId: ws.id, userId: ws.owner.id });
    expect(result).toEqual({ data: { disconnected: true } });
    expect(eb.fake.webhooks.has(rows[0].webhook_id)).toBe(false);
    expect(await db.sql`select 1 from ticketing_connections where workspace_id = ${ws.id}`).toHaveLength(0);
  });

  test("provider calls outside transactions: connect, reconnect and disconnect call Eventbrite with no transaction open (fetch first, then write)", async () => {
    const ws = await createWorkspace(db.sql);
    const calls: { call: string; inTransaction: boolean }[] = [];
    eb.fake.beforeAnswer = async ({ method, path }) => {
      calls.push({ call: `${method} ${path}`, inTransaction: await transactionOpen(db) });
    };
    try {
      for (let i = 0; i < 2; i++) {
        const state = await stateFor(ws.id, ws.owner.id);
        const connected = await completeTicketingConnection({
          workspaceId: ws.id,
          userId: ws.owner.id,
          code: eb.fake.issueCode(),
          state,
        });
        expect(connected).toHaveProperty("data");
      }
      expect(await disconnectTicketing({ workspaceId: ws.id, userId: ws.owner.id })).toEqual({
        data: { disconnected: true },
      });
    } finally {
      eb.fake.beforeAnswer = undefined;
    }
    // token, organisations, webhook; again, then the replaced webhook removed; the last one removed
    expect(calls.filter((c) => c.call.startsWith("DELETE"))).toHaveLength(2);
    expect(calls.length).toBeGreaterThanOrEqual(8);
    expect(calls.filter((c) => c.inTransaction)).toEqual([]);
  }, 60_000);

  test("a member demoted while Eventbrite answered stores nothing, and the new webhook is removed again", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, ws.id, "admin");
    const state = await stateFor(ws.id, admin.id);
    const webhooksBefore = eb.fake.webhooks.size;
    eb.fake.beforeAnswer = async ({ path }) => {
      if (path.endsWith("/webhooks/"))
        await db.sql`update workspace_members set role = 'member' where workspace_id = ${ws.id} and user_id = ${admin.id}`;
    };
    try {
      const result = await completeTicketingConnection({
        workspaceId: ws.id,
        userId: admin.id,
        code: eb.fake.issueCode(),
        state,
      });
      expect(refusal(result)?.code).toBe("forbidden");
    } finally {
      eb.fake.beforeAnswer = undefined;
    }
    expect(await db.sql`select 1 from ticketing_connections where workspace_id = ${ws.id}`).toHaveLength(0);
    expect(await jobsOf(db.sql, ws.id)).toEqual([]);
    expect(eb.fake.webhooks.size).toBe(webhooksBefore);
  });
});

describe("4.5 import and sync", () => {
  test("4.5 pricing: free, paid and mixed classes; lowest (cost + tax + fee) / 100 of the paid classes", async () => {
    const ws = await createWorkspace(db.sql);
    await connectToFake(db.sql, eb.fake, ws.id);
    eb.fake.events.clear();
    const free = eb.fake.addEvent({ ticket_classes: [freeClass(), freeClass()] });
    const paid = eb.fake.addEvent({ ticket_classes: [paidClass(2500, 199, 201)] });
    const mixed = eb.fake.addEvent({
      ticket_classes: [
        freeClass(),
        paidClass(5000, 300, 0),
        paidClass(4000, 250, 400),
        { ...freeClass(), donation: true },
      ],
    });
    const online = eb.fake.addEvent({ online_event: true, status: "draft", ticket_classes: [] });
    const result = await runTicketingSync(ws.id);
    expect(result).toEqual({ data: { events: 4, registrations: 0 } });
    const rows = await db.sql`
      select external_event_id, ticket_price, ticket_class_count, location, is_published, eventbrite_url,
             description, last_synced_at
      from events where workspace_id = ${ws.id}`;
    const byId = Object.fromEntries(rows.map((r) => [r.external_event_id, r]));
    expect(byId[free.id]).toMatchObject({ ticket_price: null, ticket_class_count: 0, is_published: true });
    expect(byId[paid.id]).toMatchObject({ ticket_price: "29.00", ticket_class_count: 1 });
    expect(byId[mixed.id]).toMatchObject({
      ticket_price: "46.50",
      ticket_class_count: 2,
      location: "Town Hall, 1 Main St, Springfield",
    });
    expect(byId[online.id]).toMatchObject({ location: "Online", is_published: false });
    expect(byId[paid.id].eventbrite_url).toBe(paid.url);
    expect(byId[paid.id].description).toBe("<p>About </p>");
    expect(byId[paid.id].last_synced_at).toBeInstanceOf(Date);
  });

  test("historical attendees: registrations without auto-subscribe, audit notes or automations; a re-sync is idempotent", async () => {
    const ws = await createWorkspace(db.sql);
    await connectToFake(db.sql, eb.fake, ws.id, { autoSubscribe: true });
    const { automationId } = await registrationAutomation(db.sql, ws.id);
    eb.fake.events.clear();
    const event = eb.fake.addEvent({ ticket_classes: [paidClass(1000)] });
    const known = await createContact(db.sql, ws.id, {
      email: "known@example.test",
      first_name: "Kept",
      source: "form",
    });
    const { order } = eb.fake.addOrder({
      eventId: event.id,
      buyer: { email: "buyer@example.test", first_name: "Bo", last_name: "Buyer" },
      attendees: [
        { email: "known@example.test", first_name: "Changed", last_name: "Surname", gross_cents: 1000 },
        { email: "", gross_cents: 1000 },
        { email: "gone@example.test", gross_cents: 1000 },
      ],
    });
    eb.fake.refund(order.id, [[...eb.fake.orders.get(order.id)!.attendee_ids][2]]);

    expect(await runTicketingSync(ws.id)).toEqual({ data: { events: 1, registrations: 3 } });
    const regs = await db.sql`
      select c.email, r.status, r.amount_paid from event_registrations r join contacts c on c.id = r.contact_id
      where r.workspace_id = ${ws.id} order by c.email`;
    expect(regs.map((r) => [r.email, r.status, r.amount_paid])).toEqual([
      ["buyer@example.test", "registered", "10.00"],
      ["gone@example.test", "cancelled", "0.00"],
      ["known@example.test", "registered", "10.00"],
    ]);
    const contacts =
      await db.sql`select email, first_name, last_name, source, is_subscribed from contacts where workspace_id = ${ws.id} order by email`;
    expect(contacts).toEqual([
      {
        email: "buyer@example.test",
        first_name: "Bo",
        last_name: "Buyer",
        source: "ticketing",
        is_subscribed: false,
      },
      {
        email: "gone@example.test",
        first_name: null,
        last_name: null,
        source: "ticketing",
        is_subscribed: false,
      },
      {
        email: "known@example.test",
        first_name: "Kept",
        last_name: "Surname",
        source: "form",
        is_subscribed: false,
      },
    ]);
    expect(await db.sql`select 1 from notes where contact_id = ${known.id}`).toHaveLength(0);
    expect(await db.sql`select 1 from automation_runs where automation_id = ${automationId}`).toHaveLength(0);

    const [{ last_synced_at: firstSync }] =
      await db.sql`select last_synced_at from events where workspace_id = ${ws.id}`;
    expect(await runTicketingSync(ws.id)).toEqual({ data: { events: 1, registrations: 0 } });
    expect(await db.sql`select 1 from event_registrations where workspace_id = ${ws.id}`).toHaveLength(3);
    const [{ last_synced_at: secondSync }] =
      await db.sql`select last_synced_at from events where workspace_id = ${ws.id}`;
    expect(secondSync.getTime()).toBeGreaterThan(firstSync.getTime());
  });

  test("a re-sync keeps the member's publish toggle and website texts, unpublishes what Eventbrite no longer lists", async () => {
    const ws = await createWorkspace(db.sql);
    await connectToFake(db.sql, eb.fake, ws.id);
    eb.fake.events.clear();
    const kept = eb.fake.addEvent();
    const cancelled = eb.fake.addEvent();
    await runTicketingSync(ws.id);
    await db.sql`update events set is_published = false, website_title = 'Our title' where external_event_id = ${kept.id}`;
    cancelled.status = "canceled";
    kept.name = { text: "Renamed on Eventbrite" };
    await runTicketingSync(ws.id);
    const rows =
      await db.sql`select external_event_id, name, is_published, website_title from events where workspace_id = ${ws.id}`;
    const byId = Object.fromEntries(rows.map((r) => [r.external_event_id, r]));
    expect(byId[kept.id]).toMatchObject({
      name: "Renamed on Eventbrite",
      is_published: false,
      website_title: "Our title",
    });
    expect(byId[cancelled.id]).toMatchObject({ is_published: false });
  });

  test("without a connection the sync says so and writes nothing", async () => {
    const ws = await createWorkspace(db.sql);
    expect(await runTicketingSync(ws.id)).toEqual({
      error: new AppError("not_found", "Connect Eventbrite first."),
    });
    expect(await withService((tx) => tx`select 1 from events where workspace_id = ${ws.id}`)).toHaveLength(0);
  });
});
