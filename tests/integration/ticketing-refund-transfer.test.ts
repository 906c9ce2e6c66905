import { describe, expect, test } from "vitest";
import {
  processPendingTicketingDeliveries,
  processTicketingDelivery,
} from "@/lib/events/ticketing/flows/process-ticketing-deliveries";
import { setupTestDatabase } from "../helpers/db";
import { delivery, registrationAutomation, setupFakeEventbrite } from "../helpers/eventbrite";
import { ticketingSteps } from "../helpers/ticketing-steps";

const db = setupTestDatabase();
const eb = setupFakeEventbrite();
const { accept, deliver, arrange, registrationsOf, runsOf } = ticketingSteps(db, eb);

/**
 * The contact of `email` enrolled in a campaign of the event (`forEvent`) and in a campaign
 * with no event (`unrelated`); `enroll` adds more enrollments.
 */
async function enrollContact(ctx: { ws: { id: string }; eventId: string }, email: string) {
  const [contact] =
    await db.sql`select id from contacts where workspace_id = ${ctx.ws.id} and email = ${email}`;
  const campaign = async (name: string, eventId: string | null = null) =>
    (
      await db.sql`insert into campaigns (workspace_id, name, event_id) values (${ctx.ws.id}, ${name}, ${eventId}) returning id`
    )[0].id as string;
  const enroll = async (campaignId: string, eventId: string | null = null) =>
    (
      await db.sql`insert into campaign_enrollments (campaign_id, contact_id, event_id) values (${campaignId}, ${contact.id}, ${eventId}) returning id`
    )[0].id as string;
  const forEvent = await enroll(await campaign("Event drip", ctx.eventId));
  const unrelated = await enroll(await campaign("Newsletter"));
  return { contactId: contact.id as string, forEvent, unrelated, campaign, enroll };
}

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
    const fan = await enrollContact(ctx, "fan@example.test");
    // enrolled for the event on the enrollment itself, in a campaign that has no event
    const byEvent = await fan.enroll(await fan.campaign("Other drip"), ctx.eventId);
    return {
      ...ctx,
      first,
      second,
      attendees,
      contactId: fan.contactId,
      enrollments: [fan.forEvent, byEvent],
      unrelatedId: fan.unrelated,
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

  test("3.2 on a transfer: the giver's enrollments for the event end with its last ticket, other campaigns stay", async () => {
    const ctx = await arrange();
    const { order, attendees } = eb.fake.addOrder({
      eventId: ctx.ebEventId,
      buyer: { email: "giver@example.test" },
      attendees: [{ email: "giver@example.test" }, { email: "giver@example.test" }],
    });
    await deliver(delivery(eb.fake, ctx.webhookId, "order.placed", `/orders/${order.id}/`));
    const { forEvent, unrelated } = await enrollContact(ctx, "giver@example.test");
    const statusOf = async (id: string) =>
      (await db.sql`select status from campaign_enrollments where id = ${id}`)[0].status;
    const transfer = async (attendeeId: string, email: string) => {
      eb.fake.attendees.get(attendeeId)!.profile = { email, first_name: "Taker" };
      const path = `/events/${ctx.ebEventId}/attendees/${attendeeId}/`;
      expect((await deliver(delivery(eb.fake, ctx.webhookId, "attendee.updated", path))).outcome).toBe(
        "done",
      );
    };

    await transfer(attendees[0].id, "first-taker@example.test");
    expect(await statusOf(forEvent)).toBe("active"); // the giver still holds the second ticket
    await transfer(attendees[1].id, "second-taker@example.test");
    expect(await statusOf(forEvent)).toBe("cancelled");
    expect(await statusOf(unrelated)).toBe("active");
    const regs = await registrationsOf(ctx.eventId);
    expect(regs.map((r) => r.email).sort()).toEqual([
      "first-taker@example.test",
      "second-taker@example.test",
    ]);
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

describe("spec 6.1: the durable inbox", () => {
  test("a crash between the 200 and the processing: the kept delivery is processed by the retry", async () => {
    const ctx = await arrange();
    const { order } = eb.fake.addOrder({
      eventId: ctx.ebEventId,
      buyer: { email: "late@example.test" },
      attendees: [{ email: "late@example.test" }],
    });
    const accepted = await accept(delivery(eb.fake, ctx.webhookId, "order.placed", `/orders/${order.id}/`));
    expect(accepted.accepted).toBe(true);
    // the process died here: nothing but the inbox row exists
    expect(await registrationsOf(ctx.eventId)).toHaveLength(0);
    const counts = await processPendingTicketingDeliveries(0);
    expect(counts.done).toBeGreaterThanOrEqual(1);
    expect(await registrationsOf(ctx.eventId)).toHaveLength(1);
    const [row] =
      await db.sql`select status, attempts, processed_at from webhook_inbox where id = ${accepted.accepted ? accepted.inboxId : ""}`;
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
    const id = accepted.accepted ? accepted.inboxId! : "";
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
