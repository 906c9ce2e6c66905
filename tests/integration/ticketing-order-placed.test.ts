import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { connectToFake, delivery, registrationAutomation, setupFakeEventbrite } from "../helpers/eventbrite";
import { createContact, createWorkspace } from "../helpers/factories";
import { ticketingSteps } from "../helpers/ticketing-steps";
import { refusal } from "../helpers/refusal";
import { paidClass } from "../fakes/eventbrite";

const db = setupTestDatabase();
const eb = setupFakeEventbrite();
const { accept, deliver, arrange, registrationsOf, runsOf } = ticketingSteps(db, eb);

describe("4.5 order.placed", () => {
  test("4.5 order.placed: contacts upserted (source ticketing), one registration per attendee, automations once per contact", async () => {
    const { webhookId, ebEventId, eventId, ws } = await arrange();
    const { automationId } = await registrationAutomation(db.sql, ws.id, eventId);
    const { order } = eb.fake.addOrder({
      eventId: ebEventId,
      buyer: { email: "buyer@example.test", first_name: "Bea", last_name: "Buyer" },
      attendees: [
        { email: "Ann@Example.test", first_name: "Ann", last_name: "Attendee", gross_cents: 2850 },
        { email: "ann@example.test", first_name: "Ann", last_name: "Attendee", gross_cents: 2850 },
        { email: "bob@example.test", first_name: "Bob", last_name: "Attendee", gross_cents: 2850 },
      ],
    });
    const { outcome } = await deliver(delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`));
    expect(outcome).toBe("done");
    const regs = await registrationsOf(eventId);
    expect(regs.map((r) => [r.email, r.status, r.amount_paid, r.source])).toEqual([
      ["ann@example.test", "registered", "28.50", "ticketing"],
      ["ann@example.test", "registered", "28.50", "ticketing"],
      ["bob@example.test", "registered", "28.50", "ticketing"],
    ]);
    const runs = await runsOf(automationId);
    expect(runs).toHaveLength(2);
    expect(new Set(runs.map((r) => r.contact_id)).size).toBe(2);
  });

  test("4.5 order.placed step 3: a blank attendee email uses the buyer's details", async () => {
    const { webhookId, ebEventId, eventId, ws } = await arrange();
    const { automationId } = await registrationAutomation(db.sql, ws.id);
    const { order } = eb.fake.addOrder({
      eventId: ebEventId,
      buyer: { email: "parent@example.test", first_name: "Pat", last_name: "Parent" },
      attendees: [
        { email: "", first_name: "Kid", last_name: "One", gross_cents: 1000 },
        { email: "  ", first_name: "Kid", last_name: "Two", gross_cents: 1000 },
      ],
    });
    await deliver(delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`));
    const regs = await registrationsOf(eventId);
    expect(regs.map((r) => r.email)).toEqual(["parent@example.test", "parent@example.test"]);
    const [contact] =
      await db.sql`select first_name, last_name from contacts where workspace_id = ${ws.id} and email = 'parent@example.test'`;
    expect(contact).toEqual({ first_name: "Pat", last_name: "Parent" });
    expect(await runsOf(automationId)).toHaveLength(1);
  });

  test("4.5 order.placed: a repeated delivery is a duplicate and a re-processed order inserts nothing and fires nothing", async () => {
    const { webhookId, ebEventId, eventId, ws } = await arrange();
    const { automationId } = await registrationAutomation(db.sql, ws.id);
    const { order } = eb.fake.addOrder({
      eventId: ebEventId,
      buyer: { email: "once@example.test" },
      attendees: [{ email: "once@example.test", gross_cents: 500 }],
    });
    const body = delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`);
    const first = await deliver(body);
    const again = await accept(body);
    expect(again).toEqual({ accepted: true, inboxId: null, duplicate: true });
    // the same order arriving under another delivery (e.g. a second webhook) is still idempotent
    await db.sql`delete from webhook_inbox where id = ${first.accepted.accepted ? first.accepted.inboxId : ""}`;
    await deliver(body);
    expect(await registrationsOf(eventId)).toHaveLength(1);
    expect(await runsOf(automationId)).toHaveLength(1);
  });

  test("4.10: an existing contact's changed names are overwritten with a system audit note", async () => {
    const { webhookId, ebEventId, ws } = await arrange();
    const c = await createContact(db.sql, ws.id, {
      email: "known@example.test",
      first_name: "Old",
      source: "form",
    });
    const { order } = eb.fake.addOrder({
      eventId: ebEventId,
      buyer: { email: "known@example.test" },
      attendees: [{ email: "known@example.test", first_name: "New", last_name: "Name" }],
    });
    await deliver(delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`));
    const [row] = await db.sql`select first_name, last_name, source from contacts where id = ${c.id}`;
    expect(row).toEqual({ first_name: "New", last_name: "Name", source: "form" });
    const notes = await db.sql`select content_text, created_by from notes where contact_id = ${c.id}`;
    expect(notes).toHaveLength(1);
    expect(notes[0].created_by).toBeNull();
    expect(notes[0].content_text).toContain("Old");
  });

  test("4.5 step 5: auto-subscribe clears non-complaint suppressions, never passes a complaint; off means no consent", async () => {
    const { webhookId, ebEventId, ws } = await arrange({ autoSubscribe: true });
    const unsub = await createContact(db.sql, ws.id, { unsubscribed_at: new Date() });
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${unsub.id}, 'unsubscribe'), (${unsub.id}, 'bounce')`;
    const spam = await createContact(db.sql, ws.id);
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${spam.id}, 'complaint')`;
    const { order } = eb.fake.addOrder({
      eventId: ebEventId,
      buyer: { email: unsub.email },
      attendees: [{ email: unsub.email }, { email: spam.email }],
    });
    await deliver(delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`));
    const [a] =
      await db.sql`select is_subscribed, opt_in_source, opt_in_ip, unsubscribed_at, opt_in_timestamp from contacts where id = ${unsub.id}`;
    expect(a).toMatchObject({
      is_subscribed: true,
      opt_in_source: "ticketing_auto_subscribe",
      opt_in_ip: null,
      unsubscribed_at: null,
    });
    expect(a.opt_in_timestamp).toBeInstanceOf(Date);
    expect(await db.sql`select reason from contact_suppressions where contact_id = ${unsub.id}`).toHaveLength(
      0,
    );
    const [b] = await db.sql`select is_subscribed, opt_in_source from contacts where id = ${spam.id}`;
    expect(b).toEqual({ is_subscribed: false, opt_in_source: null });
    expect(
      (await db.sql`select reason from contact_suppressions where contact_id = ${spam.id}`).map(
        (r) => r.reason,
      ),
    ).toEqual(["complaint"]);

    const off = await arrange({ autoSubscribe: false });
    const { order: order2 } = eb.fake.addOrder({
      eventId: off.ebEventId,
      buyer: { email: "quiet@example.test" },
      attendees: [{ email: "quiet@example.test" }],
    });
    await deliver(delivery(eb.fake, off.webhookId, "order.placed", `/orders/${order2.id}/`));
    const [quiet] =
      await db.sql`select is_subscribed, opt_in_source from contacts where workspace_id = ${off.ws.id} and email = 'quiet@example.test'`;
    expect(quiet).toEqual({ is_subscribed: false, opt_in_source: null });
  });

  test("4.5 step 2: an order for an event not imported yet imports the event with its pricing", async () => {
    const ws = await createWorkspace(db.sql);
    const { webhookId } = await connectToFake(db.sql, eb.fake, ws.id);
    const ebEvent = eb.fake.addEvent({ ticket_classes: [paidClass(1000, 100, 50), paidClass(3000)] });
    const { order } = eb.fake.addOrder({
      eventId: ebEvent.id,
      buyer: { email: "x@example.test" },
      attendees: [{ email: "x@example.test" }],
    });
    await deliver(delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`));
    const [event] =
      await db.sql`select id, ticket_price, ticket_class_count, last_synced_at from events where external_event_id = ${ebEvent.id}`;
    expect(event).toMatchObject({ ticket_price: "11.50", ticket_class_count: 2 });
    expect(await registrationsOf(event.id)).toHaveLength(1);
  });
});

describe("ticketing webhook: which deliveries are accepted", () => {
  test("a delivery for an unknown webhook id is refused with 403 and nothing is stored", async () => {
    const { ebEventId } = await arrange();
    const { order } = eb.fake.addOrder({
      eventId: ebEventId,
      buyer: { email: "a@example.test" },
      attendees: [{}],
    });
    const result = await accept(delivery(eb.fake, "wh_unknown", "order.placed", `/orders/${order.id}/`));
    expect(refusal(result)).toEqual({
      status: 403,
      code: "forbidden",
      error: "This delivery is not accepted.",
    });
    const [{ n }] =
      await db.sql`select count(*)::int as n from webhook_inbox where payload->'config'->>'webhook_id' = 'wh_unknown'`;
    expect(n).toBe(0);
  });

  test("a delivery whose api_url is not the configured Eventbrite API is refused with 403 and nothing is stored", async () => {
    const { webhookId } = await arrange();
    const before = (await db.sql`select count(*)::int as n from webhook_inbox`)[0].n;
    for (const api_url of [
      "https://attacker.example/v3/orders/1/",
      `${eb.fake.url.replace("127.0.0.1", "localhost")}/v3/orders/1/`,
      `${eb.fake.url}/v2/orders/1/`,
    ]) {
      const result = await accept({ api_url, config: { action: "order.placed", webhook_id: webhookId } });
      expect(refusal(result)).toEqual({
        status: 403,
        code: "forbidden",
        error: "This delivery is not accepted.",
      });
    }
    const wrongObject = await accept(delivery(eb.fake, webhookId, "order.placed", "/users/me/"));
    expect(refusal(wrongObject)).toMatchObject({ status: 400, code: "invalid" });
    expect(refusal(await accept({ hello: "world" }))).toMatchObject({ status: 400, code: "invalid" });
    expect((await db.sql`select count(*)::int as n from webhook_inbox`)[0].n).toBe(before);
  });
});
