import { describe, expect, test } from "vitest";
import { withService } from "@/lib/db/doors";
import { acceptTicketingDelivery } from "@/lib/events/ticketing/accept-ticketing-delivery";
import {
  processPendingTicketingDeliveries,
  processTicketingDelivery,
} from "@/lib/events/ticketing/process-ticketing-deliveries";
import { setupTestDatabase } from "../helpers/db";
import { connectToFake, delivery, registrationAutomation, setupFakeEventbrite } from "../helpers/eventbrite";
import { createContact, createWorkspace } from "../helpers/factories";
import { paidClass } from "../fakes/eventbrite";

const db = setupTestDatabase();
const eb = setupFakeEventbrite();

const accept = (body: unknown) => withService((tx) => acceptTicketingDelivery(tx, body));

async function deliver(body: unknown) {
  const accepted = await accept(body);
  if (accepted.status !== 200 || !accepted.inboxId) return { accepted, outcome: null };
  return { accepted, outcome: await processTicketingDelivery(accepted.inboxId) };
}

/** A connected workspace with one imported event on the fake. */
async function arrange(opts: { autoSubscribe?: boolean } = {}) {
  const ws = await createWorkspace(db.sql);
  const { webhookId } = await connectToFake(db.sql, eb.fake, ws.id, opts);
  const ebEvent = eb.fake.addEvent({ ticket_classes: [paidClass(2500, 150, 200)] });
  const [event] = await db.sql`
    insert into events (workspace_id, name, external_event_id, start_time, end_time, timezone, is_published)
    values (${ws.id}, 'Imported', ${ebEvent.id}, now() + interval '7 days', now() + interval '8 days', 'UTC', true)
    returning id`;
  return { ws, webhookId, ebEventId: ebEvent.id, eventId: event.id as string };
}

const registrationsOf = (eventId: string) =>
  db.sql`select r.status, r.amount_paid, r.external_attendee_id, r.contact_id, c.email, c.source
         from event_registrations r join contacts c on c.id = r.contact_id
         where r.event_id = ${eventId} order by r.external_attendee_id`;

const runsOf = (automationId: string) =>
  db.sql`select contact_id from automation_runs where automation_id = ${automationId} and status = 'succeeded'`;

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
    expect(again).toEqual({ status: 200, inboxId: null, duplicate: true });
    // the same order arriving under another delivery (e.g. a second webhook) is still idempotent
    await db.sql`delete from webhook_inbox where id = ${first.accepted.status === 200 ? first.accepted.inboxId : ""}`;
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

describe("DESIGN 4: which deliveries are accepted", () => {
  test("a delivery for an unknown webhook id is refused with 403 and nothing is stored", async () => {
    const { ebEventId } = await arrange();
    const { order } = eb.fake.addOrder({
      eventId: ebEventId,
      buyer: { email: "a@example.test" },
      attendees: [{}],
    });
    const result = await accept(delivery(eb.fake, "wh_unknown", "order.placed", `/orders/${order.id}/`));
    expect(result).toEqual({ status: 403, error: "Unknown webhook." });
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
      expect(result).toEqual({ status: 403, error: "The api_url is not the Eventbrite API." });
    }
    const wrongObject = await accept(delivery(eb.fake, webhookId, "order.placed", "/users/me/"));
    expect(wrongObject.status).toBe(400);
    expect((await accept({ hello: "world" })).status).toBe(400);
    expect((await db.sql`select count(*)::int as n from webhook_inbox`)[0].n).toBe(before);
  });
});

describe("4.5 order.refunded and 3.2", () => {
  async function arrangeEnrolled() {
    const ctx = await arrange();
    const { order: first, attendees } = eb.fake.addOrder({
      eventId: ctx.ebEventId,
      buyer: { email: "fan@example.test" },
      attendees: [{ email: "fan@example.test", gross_cents: 2850 }],
    });
    const { order: second } = eb.fake.addOrder({
      eventId: ctx.ebEventId,
      buyer: { email: "fan@example.test" },
      attendees: [{ email: "fan@example.test", gross_cents: 2850 }],
    });
    await deliver(delivery(eb.fake, ctx.webhookId, "order.placed", `/orders/${first.id}/`));
    await deliver(delivery(eb.fake, ctx.webhookId, "order.placed", `/orders/${second.id}/`));
    const [contact] =
      await db.sql`select id from contacts where workspace_id = ${ctx.ws.id} and email = 'fan@example.test'`;
    const [campaign] =
      await db.sql`insert into campaigns (workspace_id, name, event_id) values (${ctx.ws.id}, 'Event drip', ${ctx.eventId}) returning id`;
    const [other] =
      await db.sql`insert into campaigns (workspace_id, name) values (${ctx.ws.id}, 'Newsletter') returning id`;
    const [byCampaign] =
      await db.sql`insert into campaign_enrollments (campaign_id, contact_id) values (${campaign.id}, ${contact.id}) returning id`;
    const [byEvent] =
      await db.sql`insert into campaign_enrollments (campaign_id, contact_id, event_id) values (${other.id}, ${contact.id}, ${ctx.eventId}) returning id`;
    const [third] =
      await db.sql`insert into campaigns (workspace_id, name) values (${ctx.ws.id}, 'Other drip') returning id`;
    const [unrelated] =
      await db.sql`insert into campaign_enrollments (campaign_id, contact_id) values (${third.id}, ${contact.id}) returning id`;
    return {
      ...ctx,
      first,
      second,
      attendees,
      contactId: contact.id,
      enrollments: [byCampaign.id, byEvent.id],
      unrelatedId: unrelated.id as string,
    };
  }

  const statuses = (ids: string[]) =>
    db.sql`select status from campaign_enrollments where id in ${db.sql(ids)} order by id`.then((rows) =>
      rows.map((r) => r.status),
    );

  test("3.2: refund with another ticket left cancels that registration (amount 0) and keeps the enrollments", async () => {
    const ctx = await arrangeEnrolled();
    eb.fake.refund(ctx.first.id);
    await deliver(delivery(eb.fake, ctx.webhookId, "order.refunded", `/orders/${ctx.first.id}/`));
    const regs =
      await db.sql`select status, amount_paid, external_order_id from event_registrations where event_id = ${ctx.eventId} order by external_order_id`;
    expect(regs.map((r) => [r.external_order_id, r.status, r.amount_paid])).toEqual([
      [ctx.first.id, "cancelled", "0.00"],
      [ctx.second.id, "registered", "28.50"],
    ]);
    expect(await statuses(ctx.enrollments)).toEqual(["active", "active"]);
  });

  test("3.2: refund of the last ticket cancels the event's active enrollments, a replay changes nothing", async () => {
    const ctx = await arrangeEnrolled();
    eb.fake.refund(ctx.first.id);
    eb.fake.refund(ctx.second.id);
    await deliver(delivery(eb.fake, ctx.webhookId, "order.refunded", `/orders/${ctx.first.id}/`));
    await deliver(delivery(eb.fake, ctx.webhookId, "order.refunded", `/orders/${ctx.second.id}/`));
    const regs =
      await db.sql`select status, amount_paid from event_registrations where event_id = ${ctx.eventId}`;
    expect(regs.every((r) => r.status === "cancelled" && r.amount_paid === "0.00")).toBe(true);
    expect(await statuses(ctx.enrollments)).toEqual(["cancelled", "cancelled"]);
    expect(await statuses([ctx.unrelatedId])).toEqual(["active"]);
    const { outcome } = await deliver(
      delivery(eb.fake, ctx.webhookId, "order.refunded", `/orders/${ctx.second.id}/`),
    );
    expect(outcome).toBe("done");
  });
});

describe("4.5 attendee.updated", () => {
  test("a transfer re-points the registration to a new contact, fires the automations and auto-subscribes it", async () => {
    const ctx = await arrange({ autoSubscribe: true });
    const { automationId } = await registrationAutomation(db.sql, ctx.ws.id);
    const { order, attendees } = eb.fake.addOrder({
      eventId: ctx.ebEventId,
      buyer: { email: "giver@example.test" },
      attendees: [{ email: "giver@example.test", first_name: "Gina" }],
    });
    await deliver(delivery(eb.fake, ctx.webhookId, "order.placed", `/orders/${order.id}/`));
    eb.fake.attendees.get(attendees[0].id)!.profile = {
      email: "taker@example.test",
      first_name: "Tom",
      last_name: "Taker",
    };
    const path = `/events/${ctx.ebEventId}/attendees/${attendees[0].id}/`;
    const { outcome } = await deliver(delivery(eb.fake, ctx.webhookId, "attendee.updated", path));
    expect(outcome).toBe("done");
    const [reg] = await registrationsOf(ctx.eventId);
    expect(reg).toMatchObject({ email: "taker@example.test", status: "registered", source: "ticketing" });
    const [taker] =
      await db.sql`select first_name, last_name, is_subscribed, opt_in_source from contacts where id = ${reg.contact_id}`;
    expect(taker).toEqual({
      first_name: "Tom",
      last_name: "Taker",
      is_subscribed: true,
      opt_in_source: "ticketing_auto_subscribe",
    });
    const runs = await runsOf(automationId);
    expect(runs.map((r) => r.contact_id)).toContain(reg.contact_id);
    expect(runs).toHaveLength(2);
    // the same update delivered again: the registration already points at the taker, nothing fires
    await deliver(delivery(eb.fake, ctx.webhookId, "attendee.updated", path));
    expect(await runsOf(automationId)).toHaveLength(2);
  });

  test("a name-only change updates the contact with diff-and-audit and fires nothing", async () => {
    const ctx = await arrange();
    const { automationId } = await registrationAutomation(db.sql, ctx.ws.id);
    const { order, attendees } = eb.fake.addOrder({
      eventId: ctx.ebEventId,
      buyer: { email: "same@example.test" },
      attendees: [{ email: "same@example.test", first_name: "Sam", last_name: "Before" }],
    });
    await deliver(delivery(eb.fake, ctx.webhookId, "order.placed", `/orders/${order.id}/`));
    eb.fake.attendees.get(attendees[0].id)!.profile = {
      email: "same@example.test",
      first_name: "Sam",
      last_name: "After",
    };
    await deliver(
      delivery(
        eb.fake,
        ctx.webhookId,
        "attendee.updated",
        `/events/${ctx.ebEventId}/attendees/${attendees[0].id}/`,
      ),
    );
    const [contact] =
      await db.sql`select id, last_name from contacts where workspace_id = ${ctx.ws.id} and email = 'same@example.test'`;
    expect(contact.last_name).toBe("After");
    const notes = await db.sql`select content_text from notes where contact_id = ${contact.id}`;
    expect(notes).toHaveLength(1);
    expect(notes[0].content_text).toContain("Before");
    expect(await runsOf(automationId)).toHaveLength(1);
  });
});

describe("DESIGN 4: the durable inbox", () => {
  test("a crash between the 200 and the processing: the kept delivery is processed by the retry", async () => {
    const ctx = await arrange();
    const { order } = eb.fake.addOrder({
      eventId: ctx.ebEventId,
      buyer: { email: "late@example.test" },
      attendees: [{ email: "late@example.test" }],
    });
    const accepted = await accept(delivery(eb.fake, ctx.webhookId, "order.placed", `/orders/${order.id}/`));
    expect(accepted.status).toBe(200);
    // the process died here: nothing but the inbox row exists
    expect(await registrationsOf(ctx.eventId)).toHaveLength(0);
    const counts = await processPendingTicketingDeliveries(0);
    expect(counts.done).toBeGreaterThanOrEqual(1);
    expect(await registrationsOf(ctx.eventId)).toHaveLength(1);
    const [row] =
      await db.sql`select status, attempts, processed_at from webhook_inbox where id = ${accepted.status === 200 ? accepted.inboxId : ""}`;
    expect(row).toMatchObject({ status: "done", attempts: 1 });
  });

  test("a failed processing keeps the error and the attempt, writes nothing, and is retried", async () => {
    const ctx = await arrange();
    const { order } = eb.fake.addOrder({
      eventId: ctx.ebEventId,
      buyer: { email: "retry@example.test" },
      attendees: [{ email: "retry@example.test" }],
    });
    eb.fake.failNext = 1;
    const { accepted, outcome } = await deliver(
      delivery(eb.fake, ctx.webhookId, "order.placed", `/orders/${order.id}/`),
    );
    expect(outcome).toBe("failed");
    const id = accepted.status === 200 ? accepted.inboxId! : "";
    const [failed] = await db.sql`select status, attempts, last_error from webhook_inbox where id = ${id}`;
    expect(failed).toMatchObject({ status: "failed", attempts: 1 });
    expect(failed.last_error).toContain("500");
    expect(await registrationsOf(ctx.eventId)).toHaveLength(0);
    expect(await processTicketingDelivery(id)).toBe("done");
    expect(await registrationsOf(ctx.eventId)).toHaveLength(1);
    expect((await db.sql`select status, attempts from webhook_inbox where id = ${id}`)[0]).toEqual({
      status: "done",
      attempts: 2,
    });
  });
});
