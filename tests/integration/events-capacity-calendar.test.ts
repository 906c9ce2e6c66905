import ICAL from "ical.js";
import { beforeAll, describe, expect, test } from "vitest";
import { POST } from "@/app/api/rsvp/[eventId]/route";
import { GET as calendarGet } from "@/app/rsvp/[eventId]/calendar.ics/route";
import { withService } from "@/lib/db/doors";
import { listPublicEvents } from "@/lib/events/public-api/list-public-events";
import { listEventRegistrations, registrationsCsv } from "@/lib/events/list-event-registrations";
import { submitRsvp } from "@/lib/events/rsvp/submit-rsvp";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

beforeAll(() => {
  process.env.APP_URL = "http://crm.test";
  delete process.env.RESEND_API_KEY;
});

let ipCounter = 1;
const freshIp = () => `198.18.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

function rsvp(eventId: string, body: Record<string, unknown>) {
  return POST(
    new Request(`http://crm.test/api/rsvp/${eventId}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": freshIp() },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ eventId }) },
  );
}

async function createEvent(workspaceId: string, fields: Record<string, unknown> = {}) {
  const row = {
    workspace_id: workspaceId,
    name: "Open house",
    start_time: new Date(Date.now() + 86_400_000),
    end_time: new Date(Date.now() + 90_000_000),
    timezone: "Europe/Paris",
    is_published: true,
    ...fields,
  };
  const [event] = await db.sql`insert into events ${db.sql(row)} returning id`;
  return event.id as string;
}

const stored = async (workspaceId: string) => {
  const [row] = await db.sql`
    select (select count(*)::int from contacts where workspace_id = ${workspaceId}) as contacts,
           (select count(*)::int from event_registrations where workspace_id = ${workspaceId}) as registrations,
           (select count(*)::int from email_sends where workspace_id = ${workspaceId}) as emails`;
  return row;
};

describe("event capacity", () => {
  test("an RSVP beyond capacity is refused with 409 and a clear message, and stores nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id, { capacity: 1 });
    expect((await rsvp(eventId, { email: "first@example.test" })).status).toBe(200);
    const before = await stored(ws.id);
    const res = await rsvp(eventId, { email: "second@example.test", is_subscribed: true });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      success: false,
      error: "This event is full: no seats are left.",
      code: "event_full",
    });
    expect(await stored(ws.id)).toEqual(before);
    // the person already holding the seat may repeat their RSVP: nothing changes
    const again = await rsvp(eventId, { email: "first@example.test" });
    expect(await again.json()).toMatchObject({ success: true, already_registered: true });
    expect(await stored(ws.id)).toEqual(before);
  });

  test("a cancelled registration frees its seat; an existing contact refused for a full event is not changed", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id, { capacity: 1 });
    const c = await createContact(db.sql, ws.id, { first_name: "Kept", is_subscribed: false });
    await db.sql`insert into event_registrations (workspace_id, event_id, contact_id, status)
                 values (${ws.id}, ${eventId}, ${c.id}, 'registered')`;
    const other = await createContact(db.sql, ws.id, { is_subscribed: false });
    const refused = await rsvp(eventId, { email: other.email, is_subscribed: true });
    expect(refused.status).toBe(409);
    const [unchanged] =
      await db.sql`select is_subscribed, opt_in_source from contacts where id = ${other.id}`;
    expect(unchanged).toEqual({ is_subscribed: false, opt_in_source: null });
    await db.sql`update event_registrations set status = 'cancelled' where contact_id = ${c.id}`;
    expect((await rsvp(eventId, { email: other.email })).status).toBe(200);
  });

  // On Postgres the 20 RSVPs run on 10 pooled connections at once and meet at the event row's
  // lock. PGlite has a single session, so there the transactions run one after another: the
  // test then proves the count-then-insert logic (the 2nd..20th see the seat taken), not the lock.
  test("under 20 concurrent RSVPs for the last seat exactly one succeeds", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id, { capacity: 3 });
    for (const email of ["a@example.test", "b@example.test"])
      expect((await rsvp(eventId, { email })).status).toBe(200);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        withService((tx) =>
          submitRsvp(tx, {
            eventId,
            ip: null,
            rsvp: {
              email: `racer${i}@example.test`,
              firstName: null,
              lastName: null,
              phone: null,
              isSubscribed: false,
            },
          }),
        ),
      ),
    );
    expect(outcomes.filter((o) => "data" in o)).toHaveLength(1);
    expect(outcomes.filter((o) => "error" in o && o.error.code === "event_full")).toHaveLength(19);
    const [{ n }] = await db.sql`
      select count(*)::int as n from event_registrations where event_id = ${eventId} and status = 'registered'`;
    expect(n).toBe(3);
    expect((await stored(ws.id)).contacts).toBe(3);
  });

  test("the public API reports capacity and remaining seats", async () => {
    const ws = await createWorkspace(db.sql);
    const limited = await createEvent(ws.id, { capacity: 5, name: "Limited" });
    await createEvent(ws.id, {
      name: "Open",
      start_time: new Date(Date.now() + 2 * 86_400_000),
      end_time: new Date(Date.now() + 3 * 86_400_000),
    });
    await rsvp(limited, { email: "p@example.test" });
    const list = await withService((tx) => listPublicEvents(tx, { workspaceId: ws.id }));
    expect(list.map((e) => [e.title, e.capacity, e.remaining_seats])).toEqual([
      ["Limited", 5, 4],
      ["Open", null, null],
    ]);
  });
});

describe("event registrations list", () => {
  test("search, status filter and CSV export with formulas neutralised, scoped to the workspace", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id);
    const a = await createContact(db.sql, ws.id, {
      first_name: '=HYPERLINK("x")',
      email: "alpha@example.test",
    });
    const b = await createContact(db.sql, ws.id, { first_name: "Bea", email: "beta@example.test" });
    await db.sql`insert into event_registrations (workspace_id, event_id, contact_id, status, amount_paid) values
      (${ws.id}, ${eventId}, ${a.id}, 'registered', 12.5), (${ws.id}, ${eventId}, ${b.id}, 'cancelled', 0)`;
    const as = (f: Record<string, unknown>, workspaceId = ws.id) =>
      withService((tx) => listEventRegistrations(tx, { workspaceId, eventId, ...f }));
    expect((await as({ search: "BEA" })).map((r) => r.email)).toEqual(["beta@example.test"]);
    expect((await as({ status: "registered" })).map((r) => r.amount_paid)).toEqual(["12.50"]);
    expect(await as({}, other.id)).toEqual([]);
    const csv = registrationsCsv(await as({ status: "registered" }));
    expect(csv.split("\r\n")[1]).toMatch(/^alpha@example\.test,"'=HYPERLINK\(""x""\)",,registered,12\.50,/);
  });
});

describe("calendar file: GET /rsvp/{event_id}/calendar.ics", () => {
  const get = (eventId: string) =>
    calendarGet(new Request(`http://crm.test/rsvp/${eventId}/calendar.ics`), {
      params: Promise.resolve({ eventId }),
    });

  test("a published event is one RFC 5545 VEVENT that an independent parser (ical.js) reads back", async () => {
    const ws = await createWorkspace(db.sql);
    const start = new Date("2027-03-04T18:30:00Z");
    const eventId = await createEvent(ws.id, {
      name: "Talks; beer, and \\ more",
      location: 'Hall 1, Floor 2; Room "B"',
      start_time: start,
      end_time: new Date("2027-03-04T21:00:00Z"),
    });
    const res = await get(eventId);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const text = await res.text();
    expect(text).toContain("SUMMARY:Talks\\; beer\\, and \\\\ more");
    const calendar = new ICAL.Component(ICAL.parse(text));
    const vevents = calendar.getAllSubcomponents("vevent");
    expect(vevents).toHaveLength(1);
    const event = new ICAL.Event(vevents[0]);
    expect(event.uid).toBe(`${eventId}@crm.test`);
    expect(event.summary).toBe("Talks; beer, and \\ more");
    expect(event.location).toBe('Hall 1, Floor 2; Room "B"');
    expect(event.startDate.toJSDate().toISOString()).toBe(start.toISOString());
    expect(event.endDate.toJSDate().toISOString()).toBe("2027-03-04T21:00:00.000Z");
    expect(vevents[0].getFirstPropertyValue("url")).toBe(`http://crm.test/rsvp/${eventId}`);
  });

  test("unpublished, unknown and malformed ids get the same 404", async () => {
    const ws = await createWorkspace(db.sql);
    const hidden = await createEvent(ws.id, { is_published: false });
    for (const id of [hidden, "00000000-0000-4000-8000-000000000000", "nope"]) {
      const res = await get(id);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe("Not found");
    }
  });
});
