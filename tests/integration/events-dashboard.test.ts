import { AppError } from "@/lib/errors/app-error";
import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { createEvent } from "@/lib/events/create-event";
import { deleteEvent } from "@/lib/events/delete-event";
import { getEventById } from "@/lib/events/get-event-by-id";
import { getEvents } from "@/lib/events/get-events";
import { eventFormSchema, linkedEventFormSchema } from "@/lib/events/schemas";
import { updateEvent } from "@/lib/events/update-event";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

const form = (overrides: Record<string, string> = {}) =>
  eventFormSchema.parse({
    name: "Summer party",
    description:
      '<p onclick="x()">Bring <strong>friends</strong><script>alert(1)</script> <a href="javascript:x">x</a></p>',
    location: "The garden",
    start: "2026-07-01T19:00",
    end: "2026-07-01T23:30",
    timezone: "Europe/Paris",
    is_published: "on",
    ...overrides,
  });

const hours = (n: number) => new Date(Date.now() + n * 3_600_000);

async function insertEvent(workspaceId: string, fields: Record<string, unknown>) {
  const row = {
    workspace_id: workspaceId,
    name: "E",
    timezone: "UTC",
    start_time: hours(1),
    end_time: hours(2),
    ...fields,
  };
  const [e] = await db.sql`insert into events ${db.sql(row)} returning id`;
  return e.id as string;
}

describe("events: create, edit, delete (owners and admins; everyone reads)", () => {
  test("2.7: times typed in the event's IANA zone are stored in UTC; the description is sanitised HTML", async () => {
    const ws = await createWorkspace(db.sql);
    const { data } = await withUser(ws.owner.claims, (tx) =>
      createEvent(tx, { workspaceId: ws.id, event: form() }),
    );
    const [row] = await db.sql`select * from events where id = ${data.id}`;
    expect(row.start_time.toISOString()).toBe("2026-07-01T17:00:00.000Z");
    expect(row.end_time.toISOString()).toBe("2026-07-01T21:30:00.000Z");
    expect(row.timezone).toBe("Europe/Paris");
    expect(row.description).toBe(
      '<p>Bring <strong>friends</strong> <a rel="noopener noreferrer nofollow" target="_blank">x</a></p>',
    );
    expect(row).toMatchObject({ location: "The garden", is_published: true, external_event_id: null });
    const online = await withUser(ws.owner.claims, (tx) =>
      createEvent(tx, {
        workspaceId: ws.id,
        event: form({
          online: "on",
          timezone: "America/New_York",
          start: "2026-12-01T09:00",
          end: "2026-12-01T10:00",
        }),
      }),
    );
    expect(online.data.location).toBe("Online");
    expect(online.data.start_time!.toISOString()).toBe("2026-12-01T14:00:00.000Z");
  });

  test("the form refuses a missing name, an end before the start and an unknown time zone", () => {
    const result = eventFormSchema.safeParse({
      name: " ",
      start: "2026-07-01T19:00",
      end: "2026-07-01T18:00",
      timezone: "Mars/Olympus",
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path[0]);
    expect(paths).toEqual(expect.arrayContaining(["name", "timezone"]));
    const order = eventFormSchema.safeParse({
      name: "x",
      start: "2026-07-01T19:00",
      end: "2026-07-01T18:00",
      timezone: "UTC",
    });
    expect(order.error!.issues[0]).toMatchObject({
      path: ["end"],
      message: "The end must not be before the start.",
    });
  });

  test("5.4: members read events but cannot create, edit or delete them", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const id = await insertEvent(ws.id, { name: "Members can read" });
    await expect(
      withUser(member.claims, (tx) => createEvent(tx, { workspaceId: ws.id, event: form() })),
    ).rejects.toThrow();
    expect(
      await withUser(member.claims, (tx) =>
        updateEvent(tx, { workspaceId: ws.id, eventId: id, event: form() }),
      ),
    ).toEqual({ error: new AppError("not_found", "This event does not exist.") });
    expect(
      await withUser(member.claims, (tx) => deleteEvent(tx, { workspaceId: ws.id, eventId: id })),
    ).toHaveProperty("error");
    const page = await withUser(member.claims, (tx) => getEvents(tx, { workspaceId: ws.id }));
    expect(page.data.map((e) => e.name)).toEqual(["Members can read"]);
    const [row] = await db.sql`select name from events where id = ${id}`;
    expect(row.name).toBe("Members can read");
  });

  test("a ticketing-linked event only takes its publish toggle and website texts; deleting cascades to registrations", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, ws.id, "admin");
    const id = await insertEvent(ws.id, { name: "From Eventbrite", external_event_id: "eb-77" });
    const contact = await createContact(db.sql, ws.id);
    await db.sql`insert into event_registrations (workspace_id, event_id, contact_id) values (${ws.id}, ${id}, ${contact.id})`;
    const result = await withUser(admin.claims, (tx) =>
      updateEvent(tx, {
        workspaceId: ws.id,
        eventId: id,
        event: {
          ...form({ name: "Renamed" }),
          website_title: "Public title",
          website_description: "<p>Hi<img src=x onerror=y></p>",
        },
      }),
    );
    expect(result).toHaveProperty("data");
    const [row] =
      await db.sql`select name, is_published, website_title, website_description from events where id = ${id}`;
    expect(row).toEqual({
      name: "From Eventbrite",
      is_published: true,
      website_title: "Public title",
      website_description: "<p>Hi</p>",
    });
    const linkedOnly = linkedEventFormSchema.parse({ website_title: "" });
    await withUser(admin.claims, (tx) =>
      updateEvent(tx, { workspaceId: ws.id, eventId: id, event: linkedOnly }),
    );
    expect((await db.sql`select is_published, website_title from events where id = ${id}`)[0]).toEqual({
      is_published: false,
      website_title: null,
    });
    expect(
      await withUser(admin.claims, (tx) => deleteEvent(tx, { workspaceId: ws.id, eventId: id })),
    ).toEqual({ data: { id } });
    expect(await db.sql`select 1 from event_registrations where event_id = ${id}`).toHaveLength(0);
  });

  test("the event page lists registrations with contact, status and amount", async () => {
    const ws = await createWorkspace(db.sql);
    const id = await insertEvent(ws.id, {});
    const a = await createContact(db.sql, ws.id, { first_name: "Ann" });
    const b = await createContact(db.sql, ws.id, { first_name: "Ben" });
    await db.sql`insert into event_registrations (workspace_id, event_id, contact_id, amount_paid, status, external_attendee_id)
                 values (${ws.id}, ${id}, ${a.id}, 28.5, 'registered', 'at-1'), (${ws.id}, ${id}, ${b.id}, 0, 'cancelled', 'at-2')`;
    const result = await withUser(ws.owner.claims, (tx) =>
      getEventById(tx, { workspaceId: ws.id, eventId: id }),
    );
    if (!("data" in result)) throw result.error;
    expect(result.data.registrations.map((r) => [r.first_name, r.status, r.amount_paid]).sort()).toEqual([
      ["Ann", "registered", "28.50"],
      ["Ben", "cancelled", "0.00"],
    ]);
    const stranger = await createWorkspace(db.sql);
    expect(
      await withUser(stranger.owner.claims, (tx) => getEventById(tx, { workspaceId: ws.id, eventId: id })),
    ).toEqual({
      error: new AppError("not_found", "This event does not exist."),
    });
  });
});

describe("4.15 getEvents(params)", () => {
  async function arrange() {
    const ws = await createWorkspace(db.sql);
    const ids = {
      future: await insertEvent(ws.id, {
        name: "Bravo Future",
        created_at: hours(-4), // explicit: rows inserted within one clock tick would tie
        location: "Berlin",
        start_time: hours(10),
        end_time: hours(12),
        is_published: true,
      }),
      running: await insertEvent(ws.id, {
        name: "alpha running",
        created_at: hours(-3), // explicit: rows inserted within one clock tick would tie
        location: "Online",
        start_time: hours(-2),
        end_time: hours(2),
      }),
      past: await insertEvent(ws.id, {
        name: "Charlie Past",
        created_at: hours(-2), // explicit: rows inserted within one clock tick would tie
        location: "Paris 100%",
        start_time: hours(-10),
        end_time: hours(-8),
        is_published: true,
      }),
      pastNoEnd: await insertEvent(ws.id, {
        name: "Delta no end",
        created_at: hours(-1), // explicit: rows inserted within one clock tick would tie
        location: null,
        start_time: hours(-30),
        end_time: null,
      }),
    };
    return { ws, ids };
  }
  const names = (page: { data: { name: string }[] }) => page.data.map((e) => e.name);
  const run = (
    ws: { id: string; owner: { claims: Parameters<typeof withUser>[0] } },
    params: Record<string, unknown>,
  ) => withUser(ws.owner.claims, (tx) => getEvents(tx, { workspaceId: ws.id, ...params }));

  test("4.15 search: case-insensitive partial match on name or location (wildcards taken literally)", async () => {
    const { ws } = await arrange();
    expect(names(await run(ws, { search: "ALPHA" }))).toEqual(["alpha running"]);
    expect(names(await run(ws, { search: "berl" }))).toEqual(["Bravo Future"]);
    expect(names(await run(ws, { search: "100%" }))).toEqual(["Charlie Past"]);
    expect(names(await run(ws, { search: "%" }))).toEqual(["Charlie Past"]);
  });

  test("4.15 upcoming: true = start or end not past; false = end past, or start past without end; absent = all", async () => {
    const { ws } = await arrange();
    expect(names(await run(ws, { upcoming: true, sortBy: "name" }))).toEqual([
      "alpha running",
      "Bravo Future",
    ]);
    expect(names(await run(ws, { upcoming: "false", sortBy: "name" }))).toEqual([
      "Charlie Past",
      "Delta no end",
    ]);
    expect((await run(ws, { upcoming: null })).total).toBe(4);
  });

  test("4.15 published: true, false (false or null), absent = all", async () => {
    const { ws } = await arrange();
    expect(names(await run(ws, { published: true, sortBy: "name" }))).toEqual([
      "Bravo Future",
      "Charlie Past",
    ]);
    expect(names(await run(ws, { published: false, sortBy: "name" }))).toEqual([
      "alpha running",
      "Delta no end",
    ]);
    expect((await run(ws, {})).total).toBe(4);
  });

  test("4.15 sortBy name, created_at, start_time (default) and sortDir; page and pageSize", async () => {
    const { ws } = await arrange();
    expect(names(await run(ws, {}))).toEqual([
      "Delta no end",
      "Charlie Past",
      "alpha running",
      "Bravo Future",
    ]);
    expect(names(await run(ws, { sortDir: "desc" }))).toEqual([
      "Bravo Future",
      "alpha running",
      "Charlie Past",
      "Delta no end",
    ]);
    expect(names(await run(ws, { sortBy: "name", sortDir: "desc" }))).toEqual([
      "Delta no end",
      "Charlie Past",
      "Bravo Future",
      "alpha running",
    ]);
    expect(names(await run(ws, { sortBy: "created_at" }))).toEqual([
      "Bravo Future",
      "alpha running",
      "Charlie Past",
      "Delta no end",
    ]);
    const page2 = await run(ws, { page: 2, pageSize: 3 });
    expect(page2).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(names(page2)).toEqual(["Bravo Future"]);
    expect(await run(ws, { page: 5, pageSize: 3 })).toMatchObject({ data: [], total: 4 });
    expect((await run(ws, { pageSize: 1000 })).pageSize).toBe(25);
  });
});
