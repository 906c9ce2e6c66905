import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { runTicketingSync } from "@/lib/events/ticketing/flows/run-ticketing-sync";
import { countSegment } from "@/lib/segments/count-segment";
import { segmentFilterSchema } from "@/lib/segments/filter";
import { setupTestDatabase } from "../helpers/db";
import { connectToFake, delivery, setupFakeEventbrite } from "../helpers/eventbrite";
import {
  addMember,
  auditRowsOf,
  createContact,
  createWorkspace,
  type TestWorkspace,
} from "../helpers/factories";
import { signIn } from "../helpers/member-session";
import { ticketingSteps } from "../helpers/ticketing-steps";
import { paidClass } from "../fakes/eventbrite";

const events = await import("@/app/(dashboard)/events/actions");

/**
 * Attendance (docs/decisions.md, "Segments"): event_registrations.checked_in_at is set by
 * Eventbrite's `checked_in` (order placed, attendee updated, the sync) and by a member's check-in
 * toggle on the event page, audited; never by a member's own write, never across workspaces.
 */
const db = setupTestDatabase();
const eb = setupFakeEventbrite();
const { deliver, arrange } = ticketingSteps(db, eb);

const checkedInOf = async (registrationId: string) =>
  (await db.sql`select checked_in_at from event_registrations where id = ${registrationId}`)[0]
    .checked_in_at as Date | null;

async function rsvp(ws: TestWorkspace) {
  const [event] =
    await db.sql`insert into events (workspace_id, name) values (${ws.id}, 'Picnic') returning id`;
  const contact = await createContact(db.sql, ws.id);
  const [reg] = await db.sql`
    insert into event_registrations (workspace_id, event_id, contact_id) values (${ws.id}, ${event.id}, ${contact.id})
    returning id`;
  return { eventId: event.id as string, contactId: contact.id, registrationId: reg.id as string };
}

const toggle = (registrationId: string, checkedIn: "1" | "0") => {
  const form = new FormData();
  form.set("registrationId", registrationId);
  form.set("checkedIn", checkedIn);
  return events.checkInRegistrationAction(form);
};

const attended = (ws: TestWorkspace, eventId: string) =>
  withUser(ws.owner.claims, (tx) =>
    countSegment(tx, {
      workspaceId: ws.id,
      filter: segmentFilterSchema.parse({
        version: 1,
        root: { kind: "group", op: "and", conditions: [{ kind: "event_attended", eventId }] },
      }),
    }),
  );

describe("attendance from Eventbrite's checked_in", () => {
  test("order.placed with a checked-in attendee, then attendee.updated checking in the other: both recorded, once", async () => {
    const { webhookId, ebEventId, eventId, ws } = await arrange();
    const { order, attendees } = eb.fake.addOrder({
      eventId: ebEventId,
      buyer: { email: "door@example.test" },
      attendees: [{ email: "door@example.test" }, { email: "later@example.test" }],
    });
    eb.fake.attendees.get(attendees[0].id)!.checked_in = true;
    await deliver(delivery(eb.fake, webhookId, "order.placed", `/orders/${order.id}/`));
    const regs = async () =>
      db.sql`select c.email, r.checked_in_at from event_registrations r join contacts c on c.id = r.contact_id
             where r.event_id = ${eventId} order by c.email`;
    const [door, later] = await regs();
    expect(door.checked_in_at).toBeInstanceOf(Date);
    expect(later.checked_in_at).toBeNull();
    expect(await attended(ws, eventId)).toBe(1);

    eb.fake.attendees.get(attendees[1].id)!.checked_in = true;
    const path = `/events/${ebEventId}/attendees/${attendees[1].id}/`;
    expect((await deliver(delivery(eb.fake, webhookId, "attendee.updated", path))).outcome).toBe("done");
    const after = await regs();
    expect(after[1].checked_in_at).toBeInstanceOf(Date);
    // the door check-in keeps its first time
    expect(after[0].checked_in_at).toEqual(door.checked_in_at);
    expect(await attended(ws, eventId)).toBe(2);
  });

  test("the sync records Eventbrite's check-ins and never undoes one", async () => {
    const ws = await createWorkspace(db.sql);
    await connectToFake(db.sql, eb.fake, ws.id);
    eb.fake.events.clear();
    const ebEvent = eb.fake.addEvent({ ticket_classes: [paidClass(1000)] });
    const { attendees } = eb.fake.addOrder({
      eventId: ebEvent.id,
      buyer: { email: "sync@example.test" },
      attendees: [{ email: "sync@example.test", gross_cents: 1000 }],
    });
    await runTicketingSync(ws.id);
    const reg = async () =>
      (await db.sql`select id, checked_in_at from event_registrations where workspace_id = ${ws.id}`)[0];
    expect((await reg()).checked_in_at).toBeNull();
    eb.fake.attendees.get(attendees[0].id)!.checked_in = true;
    expect(await runTicketingSync(ws.id)).toEqual({ data: { events: 1, registrations: 1 } });
    const first = (await reg()).checked_in_at;
    expect(first).toBeInstanceOf(Date);
    eb.fake.attendees.get(attendees[0].id)!.checked_in = false;
    await runTicketingSync(ws.id);
    expect((await reg()).checked_in_at).toEqual(first);
  });
});

describe("the event page's check-in toggle", () => {
  test("any member checks an RSVP in and undoes it; each is one audit row", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const { eventId, registrationId } = await rsvp(ws);
    signIn(member.claims);
    expect(await toggle(registrationId, "1")).toEqual({ success: "Checked in." });
    const at = await checkedInOf(registrationId);
    expect(at).toBeInstanceOf(Date);
    expect(await attended(ws, eventId)).toBe(1);
    // checking in again keeps the first time
    await toggle(registrationId, "1");
    expect(await checkedInOf(registrationId)).toEqual(at);
    expect(await toggle(registrationId, "0")).toEqual({ success: "Check-in undone." });
    expect(await checkedInOf(registrationId)).toBeNull();
    expect(await attended(ws, eventId)).toBe(0);
    const audit = await auditRowsOf(db.sql, registrationId);
    expect(audit.map((a) => a.action)).toEqual([
      "event_registration.check_in_undone",
      "event_registration.checked_in",
      "event_registration.checked_in",
    ]);
    expect(audit.every((a) => a.actor_id === member.id)).toBe(true);
  });

  test("attack: a member of another workspace cannot check in a registration by its id; nothing changes, nothing audited", async () => {
    const victim = await createWorkspace(db.sql);
    const attacker = await createWorkspace(db.sql);
    const { registrationId } = await rsvp(victim);
    signIn(attacker.owner.claims);
    const result = await toggle(registrationId, "1");
    expect(result).toMatchObject({ code: "not_found" });
    expect(await checkedInOf(registrationId)).toBeNull();
    expect(await db.sql`select 1 from audit_log where target_id = ${registrationId}`).toHaveLength(0);
  });

  test("attack: a member's own write of checked_in_at (PostgREST's UPDATE) is refused: registrations are written by the system (spec 5.4)", async () => {
    const ws = await createWorkspace(db.sql);
    const { registrationId } = await rsvp(ws);
    await expect(
      withUser(
        ws.owner.claims,
        (tx) => tx`update public.event_registrations set checked_in_at = now() where id = ${registrationId}`,
      ),
    ).rejects.toThrow(/permission denied/);
    expect(await checkedInOf(registrationId)).toBeNull();
  });
});
