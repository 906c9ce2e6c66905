import { generateKeyPairSync } from "node:crypto";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as rsvpPost } from "@/app/api/rsvp/[eventId]/route";
import * as eventsApi from "@/lib/api/v1/events";
import { withService } from "@/lib/db/doors";
import { setRegistrationCheckIn } from "@/lib/events/check-in-registration";
import { checkInTicket } from "@/lib/events/tickets/check-in";
import { issueTicket } from "@/lib/events/tickets/issue-ticket";
import { loadTicketView } from "@/lib/events/tickets/resolve-ticket";
import { signTicket } from "@/lib/events/tickets/ticket-token";
import { syncScans } from "@/lib/events/tickets/sync-scans";
import { apiKey, call, handlerOf } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace } from "../helpers/factories";
import { withUser } from "@/lib/db/doors";
import { attempt } from "../helpers/rls";

/**
 * DESIGN section 9, "Events": POST /api/v1/events/{id}/check-ins with `{"ticket"}` (scope
 * `events:write`): 201 the first time, 409 `already_checked_in` after (with who and when), 404
 * `not_found` for a ticket of another event or workspace, 400 for a forged one; nothing stored
 * for a refusal. docs/decisions.md, "One check-in per registration": the unique key decides,
 * concurrent scans and offline scanners included (the earliest scan wins).
 */
const db = setupTestDatabase();
const checkIn = handlerOf(eventsApi.checkIn);
const ticketKey = handlerOf(eventsApi.ticketKey);

beforeAll(() => {
  process.env.APP_URL = "http://crm.test";
  delete process.env.RESEND_API_KEY;
});

async function createEvent(workspaceId: string, fields: Record<string, unknown> = {}) {
  const row = {
    workspace_id: workspaceId,
    name: "Door night",
    start_time: new Date(Date.now() + 86_400_000),
    end_time: new Date(Date.now() + 90_000_000),
    is_published: true,
    ...fields,
  };
  const [event] = await db.sql`insert into events ${db.sql(row)} returning id`;
  return event.id as string;
}

async function registered(workspaceId: string, eventId: string, status = "registered") {
  const contact = await createContact(db.sql, workspaceId, { first_name: "Ada" });
  const [r] = await db.sql`
    insert into event_registrations (workspace_id, event_id, contact_id, status)
    values (${workspaceId}, ${eventId}, ${contact.id}, 'registered') returning id`;
  const ticket = await withService((tx) => issueTicket(tx, { workspaceId, registrationId: r.id }));
  if (status !== "registered")
    await db.sql`update event_registrations set status = ${status} where id = ${r.id}`;
  return { registrationId: r.id as string, ticket: ticket!, contactId: contact.id };
}

async function setup() {
  const ws = await createWorkspace(db.sql);
  const key = await apiKey(db.sql, ws.id, ["events:write", "events:read"]);
  const eventId = await createEvent(ws.id);
  return { ws, key, eventId };
}

const scan = (key: string, eventId: string, body: unknown) =>
  call(checkIn, {
    method: "POST",
    path: `/api/v1/events/${eventId}/check-ins`,
    key,
    body,
    params: { id: eventId },
  });

const checkInsOf = (workspaceId: string) =>
  db.sql`select registration_id, checked_in_at, checked_in_by_api_key_id, checked_in_by_user_id, device_id, source
         from event_check_ins where workspace_id = ${workspaceId} order by checked_in_at`;

describe("POST /api/v1/events/{id}/check-ins", () => {
  test("201 the first time (the check-in row and the registration's attendance written), 409 already_checked_in after, naming who and when", async () => {
    const { ws, key, eventId } = await setup();
    const { registrationId, ticket } = await registered(ws.id, eventId);

    const first = await scan(key.raw, eventId, { ticket, device_id: "door-1" });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      registration_id: registrationId,
      event_id: eventId,
      checked_in_by: { type: "api_key", id: key.id, name: key.name },
      device_id: "door-1",
      source: "api",
    });
    const rows = await checkInsOf(ws.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ registration_id: registrationId, checked_in_by_api_key_id: key.id });
    const [reg] = await db.sql`select checked_in_at from event_registrations where id = ${registrationId}`;
    expect(reg.checked_in_at?.toISOString()).toBe(first.body.checked_in_at);

    const second = await scan(key.raw, eventId, { ticket, device_id: "door-2" });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("already_checked_in");
    expect(second.body.error.message).toContain(`Already checked in at ${first.body.checked_in_at}`);
    expect(second.body.check_in).toMatchObject({
      checked_in_at: first.body.checked_in_at,
      checked_in_by: { type: "api_key", name: key.name },
      device_id: "door-1",
    });
    expect(await checkInsOf(ws.id)).toHaveLength(1);
  });

  test("a forged token (signed with a key that is not the workspace's, under its key id), an altered payload and garbage are 400, nothing stored", async () => {
    const { ws, key, eventId } = await setup();
    const { registrationId, ticket } = await registered(ws.id, eventId);
    const [kid] = await db.sql`select id from event_ticket_keys where workspace_id = ${ws.id}`;
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const forged = await signTicket(
      { kid: kid.id, x: publicKey.export({ format: "jwk" }).x!, d: privateKey.export({ format: "jwk" }).d! },
      { w: ws.id, e: eventId, r: registrationId, t: null },
    );
    const [h, , sig] = ticket.split(".");
    const otherRegistration = (await registered(ws.id, eventId)).registrationId;
    const altered = `${h}.${Buffer.from(JSON.stringify({ w: ws.id, e: eventId, r: otherRegistration, t: null })).toString("base64url")}.${sig}`;
    for (const bad of [forged, altered, "not-a-ticket", ticket.slice(0, -2)]) {
      const res = await scan(key.raw, eventId, { ticket: bad });
      expect(res.status, bad.slice(0, 20)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.fields).toHaveProperty("ticket");
    }
    expect(await checkInsOf(ws.id)).toHaveLength(0);
    expect(
      await db.sql`select 1 from event_registrations where workspace_id = ${ws.id} and checked_in_at is not null`,
    ).toHaveLength(0);
  });

  test("a genuine ticket of another event of the workspace, or of another workspace's event, is 404 not_found, nothing stored", async () => {
    const { ws, key, eventId } = await setup();
    const otherEvent = await createEvent(ws.id, { name: "Other night" });
    const mine = await registered(ws.id, otherEvent);
    const stranger = await setup();
    const theirs = await registered(stranger.ws.id, stranger.eventId);

    const moved = await scan(key.raw, eventId, { ticket: mine.ticket });
    expect(moved.status).toBe(404);
    expect(moved.body.error.code).toBe("not_found");
    const foreign = await scan(key.raw, eventId, { ticket: theirs.ticket });
    expect(foreign.status).toBe(404);
    // their own event's id in the path: still not this key's
    const foreignPath = await scan(key.raw, stranger.eventId, { ticket: theirs.ticket });
    expect(foreignPath.status).toBe(404);
    expect(await checkInsOf(ws.id)).toHaveLength(0);
    expect(await checkInsOf(stranger.ws.id)).toHaveLength(0);
  });

  test("a cancelled registration's ticket is 409 ticket_cancelled; a key without events:write is 403; nothing stored", async () => {
    const { ws, key, eventId } = await setup();
    const cancelled = await registered(ws.id, eventId, "cancelled");
    const res = await scan(key.raw, eventId, { ticket: cancelled.ticket });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("ticket_cancelled");
    const reader = await apiKey(db.sql, ws.id, ["events:read"]);
    const live = await registered(ws.id, eventId);
    expect((await scan(reader.raw, eventId, { ticket: live.ticket })).status).toBe(403);
    expect(await checkInsOf(ws.id)).toHaveLength(0);
  });

  test("concurrent double scan of one ticket: exactly one check-in row, one 201 and one 409", async () => {
    const { ws, key, eventId } = await setup();
    const { ticket } = await registered(ws.id, eventId);
    const answers = await Promise.all([
      scan(key.raw, eventId, { ticket, device_id: "a" }),
      scan(key.raw, eventId, { ticket, device_id: "b" }),
      scan(key.raw, eventId, { ticket, device_id: "c" }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect(await checkInsOf(ws.id)).toHaveLength(1);
  });

  test("two live scans a few milliseconds apart, the second arriving with the earlier clock: it is already_checked_in, never a second 'checked in' at the door", async () => {
    const { ws, key, eventId } = await setup();
    const { ticket } = await registered(ws.id, eventId);
    const t = Date.now();
    const live = (device: string, now: number) =>
      withService((tx) =>
        checkInTicket(tx, {
          workspaceId: ws.id,
          eventId,
          ticket,
          by: { apiKeyId: key.id, label: "Door", deviceId: device, source: "api" },
          now: new Date(now),
        }),
      );
    expect(await live("a", t)).toMatchObject({ data: { created: true } });
    // door B's request read its clock 3 ms before door A's but reached the database after it
    const second = await live("b", t - 3);
    expect("error" in second && second.error.code).toBe("already_checked_in");
    const rows = await checkInsOf(ws.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ device_id: "a" });
  });

  test("two devices offline: the earlier scan wins even when it syncs last; the later one is answered already_checked_in with the first's details", async () => {
    const { ws, eventId } = await setup();
    const member = await addMember(db.sql, ws.id, "member");
    const { ticket, registrationId } = await registered(ws.id, eventId);
    const early = new Date(Date.now() - 60_000).toISOString();
    const late = new Date(Date.now() - 30_000).toISOString();
    const sync = (device: string, at: string) =>
      withService((tx) =>
        syncScans(tx, {
          workspaceId: ws.id,
          eventId,
          userId: member.id,
          label: `${device}@example.test`,
          batch: { device_id: device, scans: [{ id: `${device}-1`, ticket, scanned_at: at }] },
        }),
      );
    // device B scanned later but syncs first
    expect(await sync("b", late)).toMatchObject([{ status: "checked_in" }]);
    // device A scanned first: it holds the check-in
    expect(await sync("a", early)).toMatchObject([
      { status: "checked_in", check_in: { checked_in_at: early } },
    ]);
    const rows = await checkInsOf(ws.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ device_id: "a", checked_in_by_user_id: member.id, source: "scanner" });
    expect(rows[0].checked_in_at.toISOString()).toBe(early);
    const [reg] = await db.sql`select checked_in_at from event_registrations where id = ${registrationId}`;
    expect(reg.checked_in_at.toISOString()).toBe(early);
    // B again (or anyone later): already checked in, by A, at A's time
    expect(await sync("b", late)).toMatchObject([
      {
        status: "already_checked_in",
        check_in: { checked_in_at: early, by: "a@example.test", device_id: "a" },
      },
    ]);
  });

  test("the event page's check-in box goes through the same rule: after a scan it keeps the first check-in; undo removes it", async () => {
    const { ws, key, eventId } = await setup();
    const { ticket, registrationId } = await registered(ws.id, eventId);
    const first = await scan(key.raw, eventId, { ticket });
    await withService((tx) =>
      setRegistrationCheckIn(tx, {
        workspaceId: ws.id,
        registrationId,
        checkedIn: true,
        by: { label: "box@example.test", source: "dashboard" },
      }),
    );
    const rows = await checkInsOf(ws.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].checked_in_at.toISOString()).toBe(first.body.checked_in_at);
    await withService((tx) =>
      setRegistrationCheckIn(tx, { workspaceId: ws.id, registrationId, checkedIn: false }),
    );
    expect(await checkInsOf(ws.id)).toHaveLength(0);
    const [reg] = await db.sql`select checked_in_at from event_registrations where id = ${registrationId}`;
    expect(reg.checked_in_at).toBeNull();
    // a box check-in first: a scan after it is already_checked_in
    await withService((tx) =>
      setRegistrationCheckIn(tx, {
        workspaceId: ws.id,
        registrationId,
        checkedIn: true,
        by: { label: "box@example.test", source: "dashboard" },
      }),
    );
    const again = await scan(key.raw, eventId, { ticket });
    expect(again.status).toBe(409);
    expect(again.body.check_in).toMatchObject({
      source: "dashboard",
      checked_in_by: { name: "box@example.test" },
    });
  });
});

describe("tickets", () => {
  test("an RSVP's confirmation email carries {base_url}/tickets/{token} and its QR image; the token names the registration and checks in", async () => {
    const { key, eventId } = await setup();
    const response = await rsvpPost(
      new Request(`http://crm.test/api/rsvp/${eventId}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.90" },
        body: JSON.stringify({ email: "door@example.test", first_name: "Dora" }),
      }),
      { params: Promise.resolve({ eventId }) },
    );
    expect(response.status).toBeLessThan(300);
    const [email] =
      await db.sql`select text_body, html from email_sends where to_email = 'door@example.test'`;
    const link = /http:\/\/crm\.test\/tickets\/([A-Za-z0-9_.-]+)/.exec(email.text_body as string);
    expect(link).not.toBeNull();
    const token = link![1];
    expect(email.html).toContain(`http://crm.test/tickets/${token}/qr.png`);
    const view = await withService((tx) => loadTicketView(tx, token));
    expect(view).toMatchObject({ event: { id: eventId }, registration: { first_name: "Dora" } });
    expect((await scan(key.raw, eventId, { ticket: token })).status).toBe(201);
  });

  test("the ticket key: members and PostgREST never read it (service only); the API serves the public half only", async () => {
    const { ws, key, eventId } = await setup();
    const before = await call(ticketKey, { path: "/api/v1/events/ticket-key", key: key.raw });
    expect(before.body).toEqual({ keys: [] });
    await registered(ws.id, eventId);
    const res = await call(ticketKey, { path: "/api/v1/events/ticket-key", key: key.raw });
    expect(res.status).toBe(200);
    expect(res.body.keys).toEqual([
      expect.objectContaining({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", kid: expect.any(String) }),
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/"d"/);
    const [row] =
      await db.sql`select public_key, private_key_sealed from event_ticket_keys where workspace_id = ${ws.id}`;
    expect(row.public_key).toBe(res.body.keys[0].x);
    expect(row.private_key_sealed).toMatch(/^v1\./);
    const owner = await addMember(db.sql, ws.id, "owner");
    expect(await attempt(() => withUser(owner.claims, (q) => q`select * from event_ticket_keys`))).toEqual({
      ok: false,
      code: "42501",
    });
    // check-ins: members read them, but write none (no INSERT grant)
    const event = await createEvent(ws.id);
    const { registrationId } = await registered(ws.id, event);
    const insert = await attempt(() =>
      withUser(
        owner.claims,
        (q) => q`insert into event_check_ins (workspace_id, event_id, registration_id, checked_in_at, source)
                 values (${ws.id}, ${event}, ${registrationId}, now(), 'scanner')`,
      ),
    );
    expect(insert).toEqual({ ok: false, code: "42501" });
  });

  test("a ticket's page answers nothing for a forged token or a cancelled registration", async () => {
    const { ws, eventId } = await setup();
    const { ticket, registrationId } = await registered(ws.id, eventId);
    expect(await withService((tx) => loadTicketView(tx, ticket))).not.toBeNull();
    expect(await withService((tx) => loadTicketView(tx, `${ticket.slice(0, -3)}AAA`))).toBeNull();
    await db.sql`update event_registrations set status = 'cancelled' where id = ${registrationId}`;
    expect(await withService((tx) => loadTicketView(tx, ticket))).toBeNull();
    // and the check-in domain refuses it the same way the API does
    const refused = await withService((tx) =>
      checkInTicket(tx, { workspaceId: ws.id, eventId, ticket, by: { label: null, source: "api" } }),
    );
    expect("error" in refused && refused.error.code).toBe("ticket_cancelled");
  });
});
