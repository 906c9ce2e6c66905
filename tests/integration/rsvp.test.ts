import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, test } from "vitest";
import { POST } from "@/app/api/rsvp/[eventId]/route";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

beforeAll(() => {
  process.env.APP_URL = "http://crm.test";
  delete process.env.RESEND_API_KEY;
});

let ipCounter = 10;
const freshIp = () => `203.0.113.${ipCounter++}`;

function rsvp(eventId: string, body: unknown, opts: { form?: boolean; ip?: string; type?: string } = {}) {
  const headers: Record<string, string> = { "x-forwarded-for": opts.ip ?? freshIp() };
  let payload: string;
  if (opts.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(body as Record<string, string>).toString();
  } else {
    headers["content-type"] = opts.type ?? "application/json";
    payload = typeof body === "string" ? body : JSON.stringify(body);
  }
  const request = new Request(`http://crm.test/api/rsvp/${eventId}`, {
    method: "POST",
    headers,
    body: payload,
  });
  return POST(request, { params: Promise.resolve({ eventId }) });
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

const contactsOf = (workspaceId: string) =>
  db.sql`select * from contacts where workspace_id = ${workspaceId}`;

describe("4.13 POST /api/rsvp/{event_id}", () => {
  test("4.13: a new contact is created with source 'event' and consent fields, registered once, and confirmed by email", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id);
    const res = await rsvp(
      eventId,
      { email: " New@Example.test ", first_name: "Nia", last_name: "New", is_subscribed: true },
      { ip: "198.51.100.7" },
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, already_registered: false });
    // contact-id leak: the answer never names the contact (its id is the key of the unsubscribe link)
    expect(body).not.toHaveProperty("contact_id");
    const [contact] = await contactsOf(ws.id);
    expect(contact).toMatchObject({
      email: "new@example.test",
      first_name: "Nia",
      last_name: "New",
      source: "event",
      is_subscribed: true,
      opt_in_source: eventId,
      opt_in_ip: "198.51.100.7",
      unsubscribed_at: null,
    });
    expect(contact.opt_in_timestamp).toBeInstanceOf(Date);
    const regs =
      await db.sql`select id, status, amount_paid, contact_id from event_registrations where event_id = ${eventId}`;
    expect(regs).toEqual([
      { id: body.registration_id, status: "registered", amount_paid: "0.00", contact_id: contact.id },
    ]);
    const emails =
      await db.sql`select to_email, kind, status, subject from email_sends where contact_id = ${contact.id}`;
    expect(emails).toEqual([
      {
        to_email: "new@example.test",
        kind: "transactional",
        status: "outbox",
        subject: "You're registered: Open house",
      },
    ]);
  });

  test("4.13: an existing contact's consent is updated and its non-complaint suppressions cleared; its names are never overwritten", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id);
    const c = await createContact(db.sql, ws.id, {
      first_name: "Ada",
      last_name: "Lovelace",
      source: "form",
      is_subscribed: false,
      unsubscribed_at: new Date("2026-01-01T00:00:00Z"),
    });
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, 'unsubscribe'), (${c.id}, 'bounce'), (${c.id}, 'complaint')`;
    const res = await rsvp(
      eventId,
      { email: c.email, first_name: "Eve", last_name: "Other", phone: "2025550143", is_subscribed: "on" },
      { form: true, ip: "198.51.100.8" },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`http://crm.test/rsvp/${eventId}?status=registered`);
    const [row] = await db.sql`select * from contacts where id = ${c.id}`;
    expect(row).toMatchObject({
      first_name: "Ada",
      last_name: "Lovelace",
      phone: "2025550143",
      source: "form",
      is_subscribed: true,
      unsubscribed_at: null,
      opt_in_source: eventId,
      opt_in_ip: "198.51.100.8",
    });
    const reasons = await db.sql`select reason from contact_suppressions where contact_id = ${c.id}`;
    expect(reasons.map((r) => r.reason)).toEqual(["complaint"]);
    expect(await db.sql`select 1 from notes where contact_id = ${c.id}`).toHaveLength(0);
    // 8.3: the complaint blocks every email, the confirmation included; it is logged as skipped
    const [sent] = await db.sql`select status, skip_reason from email_sends where contact_id = ${c.id}`;
    expect(sent).toEqual({ status: "skipped", skip_reason: "complaint suppression" });
  });

  test("4.13: without is_subscribed no consent is given or withdrawn", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id);
    const subscribed = await createContact(db.sql, ws.id, { is_subscribed: true, opt_in_source: "form-x" });
    expect((await rsvp(eventId, { email: "quiet@example.test" })).status).toBe(200);
    expect((await rsvp(eventId, { email: subscribed.email, is_subscribed: "false" })).status).toBe(200);
    const rows =
      await db.sql`select email, is_subscribed, opt_in_source from contacts where workspace_id = ${ws.id} order by email`;
    expect(rows).toEqual(
      expect.arrayContaining([
        { email: "quiet@example.test", is_subscribed: false, opt_in_source: null },
        { email: subscribed.email, is_subscribed: true, opt_in_source: "form-x" },
      ]),
    );
  });

  test("4.13: a repeated RSVP is idempotent: one registration, one confirmation", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id);
    const first = await (await rsvp(eventId, { email: "twice@example.test" })).json();
    const second = await rsvp(eventId, { email: "TWICE@example.test" });
    expect(await second.json()).toEqual({ ...first, already_registered: true });
    expect(await db.sql`select 1 from event_registrations where event_id = ${eventId}`).toHaveLength(1);
    expect(await db.sql`select 1 from email_sends where to_email = 'twice@example.test'`).toHaveLength(1);
    const again = await rsvp(eventId, { email: "twice@example.test" }, { form: true });
    expect(again.headers.get("location")).toBe(`http://crm.test/rsvp/${eventId}?status=already`);
  });
});

describe("4.13 and 7: rejected RSVPs store nothing", () => {
  test("7: unknown, unpublished, past and ticketing-linked events are rejected (ticketing directs to Eventbrite)", async () => {
    const ws = await createWorkspace(db.sql);
    const unpublished = await createEvent(ws.id, { is_published: false });
    const past = await createEvent(ws.id, {
      start_time: new Date(Date.now() - 3_600_000),
      end_time: new Date(Date.now() + 3_600_000),
    });
    const linked = await createEvent(ws.id, {
      external_event_id: "eb-1",
      eventbrite_url: "https://www.eventbrite.com/e/1",
    });
    const cases: [string, number, Record<string, unknown>][] = [
      [randomUUID(), 404, { error: "This event does not exist.", code: "not_found" }],
      ["not-a-uuid", 404, { error: "This event does not exist.", code: "not_found" }],
      [unpublished, 403, { error: "This event is not open for registration.", code: "event_unpublished" }],
      [
        past,
        410,
        { error: "This event has already started, so registration is closed.", code: "event_past" },
      ],
      [linked, 409, { eventbrite_url: "https://www.eventbrite.com/e/1", code: "event_ticketing" }],
    ];
    for (const [eventId, status, body] of cases) {
      const res = await rsvp(eventId, { email: "someone@example.test", is_subscribed: true });
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ success: false, ...body });
    }
    const formPost = await rsvp(past, { email: "someone@example.test" }, { form: true });
    expect(formPost.status).toBe(303);
    expect(formPost.headers.get("location")).toBe(`http://crm.test/rsvp/${past}?error=event_past`);
    expect(await contactsOf(ws.id)).toHaveLength(0);
    expect(await db.sql`select 1 from event_registrations where workspace_id = ${ws.id}`).toHaveLength(0);
  });

  test("4.2 step 5 (forms' honeypot): a filled website_url answers success and stores nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id);
    const res = await rsvp(eventId, { email: "bot@example.test", website_url: "http://spam.example" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    expect(await contactsOf(ws.id)).toHaveLength(0);
  });

  test("4.2.1 (forms' rate limit): a sixth RSVP within 60 seconds from one IP gets 429 with Retry-After", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id);
    const ip = "192.0.2.55";
    for (let i = 0; i < 5; i++)
      expect((await rsvp(eventId, { email: `p${i}@example.test` }, { ip })).status).toBe(200);
    const limited = await rsvp(eventId, { email: "p5@example.test" }, { ip });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await rsvp(eventId, { email: "p6@example.test" }, { ip: "192.0.2.56" })).status).toBe(200);
    const emails = (await contactsOf(ws.id)).map((c) => c.email);
    expect(emails).not.toContain("p5@example.test");
    expect(emails).toHaveLength(6);
  });

  test("bad input gets a clear 4xx and stores nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id);
    const missing = await rsvp(eventId, { first_name: "No email" });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      success: false,
      error: "Enter your email address.",
      code: "invalid",
    });
    const invalid = await rsvp(eventId, { email: "not-an-email" });
    expect(await invalid.json()).toEqual({
      success: false,
      error: "Enter a valid email address.",
      code: "invalid",
    });
    const formInvalid = await rsvp(eventId, { email: "nope" }, { form: true });
    expect(formInvalid.headers.get("location")).toBe(`http://crm.test/rsvp/${eventId}?error=email`);
    expect((await rsvp(eventId, "email=a@b.c", { type: "text/plain" })).status).toBe(415);
    expect((await rsvp(eventId, "{not json")).status).toBe(400);
    expect((await rsvp(eventId, { email: "big@example.test", first_name: "x".repeat(70_000) })).status).toBe(
      413,
    );
    expect(await contactsOf(ws.id)).toHaveLength(0);
  });
});
