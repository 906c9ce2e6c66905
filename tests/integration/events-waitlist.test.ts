import { beforeAll, describe, expect, test } from "vitest";
import { POST } from "@/app/api/rsvp/[eventId]/route";
import { POST as claimPost } from "@/app/api/rsvp/[eventId]/claim/route";
import { withService, withUser } from "@/lib/db/doors";
import { submitRsvp } from "@/lib/events/rsvp/submit-rsvp";
import { cancelRegistration, claimOffer, expireOffers } from "@/lib/events/waitlist/offers";
import { sweepWaitlistOffers } from "@/lib/events/waitlist/flows/sweep-offers";
import { updateEvent } from "@/lib/events/update-event";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

beforeAll(() => {
  process.env.APP_URL = "http://crm.test";
  delete process.env.RESEND_API_KEY;
});

let ipCounter = 1;
const freshIp = () => `198.19.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

/** An RSVP through the route, from an IP of its own; `query` and `headers` as the page sends them. */
function rsvp(
  eventId: string,
  body: Record<string, unknown>,
  { query = "", headers = {} }: { query?: string; headers?: Record<string, string> } = {},
) {
  return POST(
    new Request(`http://crm.test/api/rsvp/${eventId}${query}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": freshIp(), ...headers },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ eventId }) },
  );
}

function claim(eventId: string, token: string) {
  return claimPost(
    new Request(`http://crm.test/api/rsvp/${eventId}/claim`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token }),
    }),
    { params: Promise.resolve({ eventId }) },
  );
}

const person = (email: string) => ({
  email,
  firstName: null,
  lastName: null,
  phone: null,
  isSubscribed: false,
});

const submit = (eventId: string, email: string, now?: Date) =>
  withService((tx) => submitRsvp(tx, { eventId, ip: null, rsvp: person(email), now }));

async function createEvent(workspaceId: string, fields: Record<string, unknown> = {}) {
  const row = {
    workspace_id: workspaceId,
    name: "Workshop",
    start_time: new Date(Date.now() + 7 * 86_400_000),
    end_time: new Date(Date.now() + 7 * 86_400_000 + 3_600_000),
    timezone: "UTC",
    is_published: true,
    ...fields,
  };
  const [event] = await db.sql`insert into events ${db.sql(row)} returning id`;
  return event.id as string;
}

/** The registrations of an event by state, with the contact's email, in line order. */
const rows = (eventId: string) =>
  db.sql<{ id: string; email: string; status: string; waitlist_position: string | null }[]>`
    select r.id, c.email, r.status, r.waitlist_position from event_registrations r
    join contacts c on c.id = r.contact_id
    where r.event_id = ${eventId} order by r.waitlist_position nulls first, c.email`;

/** The claim link's token in the dev outbox's readable copy of the offer sent to `email`. */
async function offerToken(email: string): Promise<string> {
  const found = await db.sql<{ text_body: string }[]>`
    select s.text_body from email_sends e join email_send_secrets s on s.email_send_id = e.id
    where e.to_email = ${email} and e.subject like 'A seat opened up%' order by e.created_at desc limit 1`;
  const match = /\/claim\?token=([A-Za-z0-9_%-]+)/.exec(found[0]?.text_body ?? "");
  if (!match) throw new Error(`no offer email to ${email}`);
  return decodeURIComponent(match[1]);
}

describe("DESIGN section 9: a full event whose waitlist is on", () => {
  test("answers 202 {status: 'waitlisted', position: N}; the stored copy of nothing is sent; off answers 409 as before", async () => {
    const ws = await createWorkspace(db.sql);
    const on = await createEvent(ws.id, { capacity: 1, waitlist_enabled: true });
    expect((await rsvp(on, { email: "seat@example.test" })).status).toBe(200);
    const first = await rsvp(on, { email: "w1@example.test" });
    expect(first.status).toBe(202);
    expect(await first.json()).toEqual({ status: "waitlisted", position: 1 });
    const second = await rsvp(on, { email: "w2@example.test" });
    expect(await second.json()).toEqual({ status: "waitlisted", position: 2 });
    // a repeat keeps the place in line
    expect(await (await rsvp(on, { email: "w1@example.test" })).json()).toEqual({
      status: "waitlisted",
      position: 1,
    });
    expect((await rows(on)).map((r) => [r.email, r.status])).toEqual([
      ["seat@example.test", "registered"],
      ["w1@example.test", "waitlisted"],
      ["w2@example.test", "waitlisted"],
    ]);
    const off = await createEvent(ws.id, { capacity: 1 });
    await rsvp(off, { email: "seat@example.test" });
    const refused = await rsvp(off, { email: "late@example.test" });
    expect(refused.status).toBe(409);
    expect((await rows(off)).length).toBe(1);
  });

  test("20 concurrent RSVPs for the last seat give exactly one registration; the other 19 wait, numbered 1 to 19", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id, { capacity: 1, waitlist_enabled: true });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => submit(eventId, `racer${i}@example.test`)),
    );
    const data = outcomes.map((o) => ("data" in o ? o.data : null));
    expect(data.filter((d) => d?.status === "registered")).toHaveLength(1);
    const positions = data.filter((d) => d?.status === "waitlisted").map((d) => d!.position);
    expect(positions.sort((a, b) => a! - b!)).toEqual(Array.from({ length: 19 }, (_, i) => i + 1));
    const stored = await rows(eventId);
    expect(stored.filter((r) => r.status === "registered")).toHaveLength(1);
    expect(stored.filter((r) => r.status === "waitlisted")).toHaveLength(19);
  });

  test("50 joining and 10 seats freeing at once give exactly 10 offers, to the first 10 in line", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id, { capacity: 10, waitlist_enabled: true });
    const holders = [];
    for (let i = 0; i < 10; i++) {
      const r = await submit(eventId, `holder${i}@example.test`);
      holders.push("data" in r ? r.data.registrationId : "");
    }
    const joined = await Promise.all(
      Array.from({ length: 50 }, (_, i) => submit(eventId, `wait${i}@example.test`)),
    );
    const byPosition = new Map<number, string>();
    for (const [i, o] of joined.entries()) {
      expect("data" in o && o.data.status).toBe("waitlisted");
      if ("data" in o) byPosition.set(o.data.position!, `wait${i}@example.test`);
    }
    expect([...byPosition.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    await Promise.all(
      holders.map((registrationId) =>
        withService((tx) => cancelRegistration(tx, { workspaceId: ws.id, registrationId })),
      ),
    );
    const stored = await rows(eventId);
    const offered = stored.filter((r) => r.status === "offered").map((r) => r.email);
    expect(offered.sort()).toEqual(Array.from({ length: 10 }, (_, i) => byPosition.get(i + 1)!).sort());
    expect(stored.filter((r) => r.status === "waitlisted")).toHaveLength(40);
    expect(stored.filter((r) => r.status === "cancelled")).toHaveLength(10);
    // one offer email each, with the claim link; the members' copy has the token redacted
    const emails = await db.sql<{ to_email: string; text_body: string }[]>`
      select to_email, text_body from email_sends where workspace_id = ${ws.id} and subject like 'A seat opened up%'`;
    expect(emails.map((e) => e.to_email).sort()).toEqual(offered.sort());
    expect(emails[0].text_body).toContain(`http://crm.test/rsvp/${eventId}/claim?token=[redacted]`);
    expect(await offerToken(offered[0])).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe("an offer: claimed once, in time, by its link", () => {
  test("an unclaimed offer passes to the next in line when the clock moves past offer_hours; the old link says expired", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id, { capacity: 1, waitlist_enabled: true, offer_hours: 24 });
    const seat = await submit(eventId, "seat@example.test");
    await submit(eventId, "first@example.test");
    await submit(eventId, "second@example.test");
    const now = new Date();
    await withService((tx) =>
      cancelRegistration(tx, {
        workspaceId: ws.id,
        registrationId: "data" in seat ? seat.data.registrationId : "",
        now,
      }),
    );
    const firstToken = await offerToken("first@example.test");
    expect((await rows(eventId)).map((r) => [r.email, r.status])).toEqual([
      ["seat@example.test", "cancelled"],
      ["first@example.test", "offered"],
      ["second@example.test", "waitlisted"],
    ]);
    // 23 hours on: nothing expires
    expect(
      await withService((tx) => expireOffers(tx, { now: new Date(now.getTime() + 23 * 3600_000) })),
    ).toBe(0);
    // 25 hours on: the sweep expires the offer and offers the seat to the next
    const later = new Date(now.getTime() + 25 * 3600_000);
    expect(await sweepWaitlistOffers(later)).toMatchObject({ status: "done" });
    expect((await rows(eventId)).map((r) => [r.email, r.status])).toEqual([
      ["seat@example.test", "cancelled"],
      ["first@example.test", "cancelled"],
      ["second@example.test", "offered"],
    ]);
    const expired = await claim(eventId, firstToken);
    expect(expired.status).toBe(410);
    expect((await expired.json()).code).toBe("offer_expired");
    // the next one claims: registered, confirmed; the same link again is refused, nothing changes
    const secondToken = await offerToken("second@example.test");
    const ok = await claim(eventId, secondToken);
    expect(ok.status).toBe(200);
    const again = await claim(eventId, secondToken);
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe("offer_used");
    const wrong = await claim(eventId, "x".repeat(43));
    expect(wrong.status).toBe(404);
    expect((await rows(eventId)).map((r) => [r.email, r.status])).toEqual([
      ["seat@example.test", "cancelled"],
      ["first@example.test", "cancelled"],
      ["second@example.test", "registered"],
    ]);
    const [{ n }] = await db.sql`
      select count(*)::int as n from email_sends where to_email = 'second@example.test' and subject like 'You''re registered%'`;
    expect(n).toBe(1);
  });

  test("a claim after offer_expires_at, before the sweep ran, is refused and keeps the seat for the sweep", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id, { capacity: 1, waitlist_enabled: true, offer_hours: 1 });
    const seat = await submit(eventId, "seat@example.test");
    await submit(eventId, "late@example.test");
    const now = new Date(Date.now() - 2 * 3600_000);
    await withService((tx) =>
      cancelRegistration(tx, {
        workspaceId: ws.id,
        registrationId: "data" in seat ? seat.data.registrationId : "",
        now,
      }),
    );
    const token = await offerToken("late@example.test");
    const result = await withService((tx) => claimOffer(tx, { eventId, token }));
    expect("error" in result && result.error.code).toBe("offer_expired");
    expect((await rows(eventId)).find((r) => r.email === "late@example.test")?.status).toBe("offered");
  });

  test("another event's id with a valid token is not found", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id, { capacity: 1, waitlist_enabled: true });
    const other = await createEvent(ws.id);
    const seat = await submit(eventId, "seat@example.test");
    await submit(eventId, "w@example.test");
    await withService((tx) =>
      cancelRegistration(tx, {
        workspaceId: ws.id,
        registrationId: "data" in seat ? seat.data.registrationId : "",
      }),
    );
    const res = await claim(other, await offerToken("w@example.test"));
    expect(res.status).toBe(404);
    expect((await rows(eventId)).find((r) => r.email === "w@example.test")?.status).toBe("offered");
  });
});

describe("an offer in the waiting person's language (docs/decisions.md, 'Recipient languages')", () => {
  test("the offer email is in the contact's language with the claim page's ?lang=, and the claim's form post keeps it", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id, { capacity: 1, waitlist_enabled: true, name: "Atelier" });
    const seat = await submit(eventId, "seat-fr@example.test");
    await submit(eventId, "waiting-fr@example.test");
    await db.sql`update contacts set locale = 'fr-FR' where workspace_id = ${ws.id} and email = 'waiting-fr@example.test'`;
    await withService((tx) =>
      cancelRegistration(tx, {
        workspaceId: ws.id,
        registrationId: "data" in seat ? seat.data.registrationId : "",
      }),
    );
    const [offer] = await db.sql<{ subject: string; text_body: string }[]>`
      select e.subject, s.text_body from email_sends e join email_send_secrets s on s.email_send_id = e.id
      where e.to_email = 'waiting-fr@example.test'`;
    expect(offer.subject).toBe("Une place s'est libérée : Atelier");
    expect(offer.text_body).toContain("Réclamez votre place : http://crm.test/rsvp/");
    const match = /\/claim\?token=([A-Za-z0-9_%-]+)&lang=fr\b/.exec(offer.text_body);
    expect(match, offer.text_body).not.toBeNull();
    const posted = await claimPost(
      new Request(`http://crm.test/api/rsvp/${eventId}/claim?lang=fr`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: decodeURIComponent(match![1]) }).toString(),
      }),
      { params: Promise.resolve({ eventId }) },
    );
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe(`http://crm.test/rsvp/${eventId}?status=claimed&lang=fr`);
    const [{ status }] = await db.sql`
      select r.status from event_registrations r join contacts c on c.id = r.contact_id
      where c.email = 'waiting-fr@example.test' and r.event_id = ${eventId}`;
    expect(status).toBe("registered");
  });
});

describe("the RSVP's language is the contact's (docs/decisions.md, 'Recipient languages')", () => {
  test("a person who joins the waitlist from the page in Spanish, with no language of their own, is offered the seat in Spanish", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id, { capacity: 1, waitlist_enabled: true, name: "Taller" });
    const seat = await submit(eventId, "seat-es@example.test");
    const joined = await rsvp(
      eventId,
      { email: "waiting-es@example.test" },
      { headers: { "accept-language": "es-ES,es;q=0.9" } },
    );
    expect(joined.status).toBe(202);
    const [contact] = await db.sql`
      select locale from contacts where workspace_id = ${ws.id} and email = 'waiting-es@example.test'`;
    expect(contact.locale).toBe("es");
    // a language the contact already has is theirs: another page's language does not replace it
    await db.sql`update contacts set locale = 'de' where workspace_id = ${ws.id} and email = 'seat-es@example.test'`;
    const other = await createEvent(ws.id);
    const again = await rsvp(other, { email: "seat-es@example.test" }, { query: "?lang=es" });
    expect(again.status).toBe(200);
    const [kept] = await db.sql`
      select locale from contacts where workspace_id = ${ws.id} and email = 'seat-es@example.test'`;
    expect(kept.locale).toBe("de");

    await withService((tx) =>
      cancelRegistration(tx, {
        workspaceId: ws.id,
        registrationId: "data" in seat ? seat.data.registrationId : "",
      }),
    );
    const [offer] = await db.sql<{ subject: string; text_body: string }[]>`
      select e.subject, s.text_body from email_sends e join email_send_secrets s on s.email_send_id = e.id
      where e.to_email = 'waiting-es@example.test'`;
    expect(offer.subject).toBe("Se ha liberado una plaza: Taller");
    expect(offer.text_body).toMatch(/\/claim\?token=[A-Za-z0-9_%-]+&lang=es\b/);
  });

  test("an RSVP from a page in no shipped language, or without one, leaves the contact's language unset", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id);
    const res = await rsvp(
      eventId,
      { email: "nolang@example.test" },
      { headers: { "accept-language": "ja" } },
    );
    expect(res.status).toBe(200);
    const [contact] = await db.sql`
      select locale from contacts where workspace_id = ${ws.id} and email = 'nolang@example.test'`;
    expect(contact.locale).toBeNull();
  });
});

describe("capacity changes", () => {
  test("a capacity lowered below the seats taken is refused with the numbers; raised, it offers the new seats", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id, { capacity: 2, waitlist_enabled: true });
    await submit(eventId, "a@example.test");
    await submit(eventId, "b@example.test");
    await submit(eventId, "c@example.test");
    const form = {
      is_published: true,
      website_title: null,
      website_description: null,
    };
    const lowered = await withUser(ws.owner.claims, (tx) =>
      updateEvent(tx, { workspaceId: ws.id, eventId, event: { ...form, capacity: 1 } }),
    );
    expect("error" in lowered && lowered.error.message).toBe(
      "This event has 2 seats taken: its capacity cannot go below 2 (asked for 1).",
    );
    const [{ capacity }] = await db.sql`select capacity from events where id = ${eventId}`;
    expect(capacity).toBe(2);
    const raised = await withUser(ws.owner.claims, (tx) =>
      updateEvent(tx, { workspaceId: ws.id, eventId, event: { ...form, capacity: 3 } }),
    );
    expect("data" in raised).toBe(true);
    expect((await rows(eventId)).find((r) => r.email === "c@example.test")?.status).toBe("offered");
  });
});

describe("ticket types at the RSVP", () => {
  async function typedEvent(ws: { id: string }, fields: Record<string, unknown> = {}) {
    const eventId = await createEvent(ws.id, { capacity: 10, ...fields });
    const [open] = await db.sql`
      insert into event_ticket_types (workspace_id, event_id, name, capacity, sort_order)
      values (${ws.id}, ${eventId}, 'Standard', 1, 0) returning id`;
    const [hidden] = await db.sql`
      insert into event_ticket_types (workspace_id, event_id, name, is_hidden, access_code, access_code_limit, sort_order)
      values (${ws.id}, ${eventId}, 'Friends', true, 'FrIeNdS', 1, 1) returning id`;
    return { eventId, open: open.id as string, hidden: hidden.id as string };
  }

  test("each registration names its type; a hidden type only with its code (any case), up to its use limit", async () => {
    const ws = await createWorkspace(db.sql);
    const { eventId, open, hidden } = await typedEvent(ws);
    expect((await rsvp(eventId, { email: "a@example.test", ticket_type_id: open })).status).toBe(200);
    // the hidden type without its code is not offered: refused as an unknown type, nothing stored
    const noCode = await rsvp(eventId, { email: "b@example.test", ticket_type_id: hidden });
    expect(noCode.status).toBe(400);
    const withCode = await rsvp(eventId, { email: "b@example.test", code: "friends" });
    expect(withCode.status).toBe(200);
    // its one use is spent: the next with the code is refused, nothing stored
    const spent = await rsvp(eventId, { email: "c@example.test", ticket_type_id: hidden, code: "FRIENDS" });
    expect(spent.status).toBe(409);
    expect((await spent.json()).code).toBe("ticket_unavailable");
    const stored = await db.sql`
      select c.email, t.name from event_registrations r join contacts c on c.id = r.contact_id
      join event_ticket_types t on t.id = r.ticket_type_id where r.event_id = ${eventId} order by c.email`;
    expect(stored).toEqual([
      { email: "a@example.test", name: "Standard" },
      { email: "b@example.test", name: "Friends" },
    ]);
    const [{ access_code_uses }] =
      await db.sql`select access_code_uses from event_ticket_types where id = ${hidden}`;
    expect(access_code_uses).toBe(1);
  });

  test("a full type answers as a full event: refused without the waitlist, in line with it (the event still has seats)", async () => {
    const ws = await createWorkspace(db.sql);
    const plain = await typedEvent(ws);
    await rsvp(plain.eventId, { email: "a@example.test", ticket_type_id: plain.open });
    expect((await rsvp(plain.eventId, { email: "b@example.test", ticket_type_id: plain.open })).status).toBe(
      409,
    );
    const lined = await typedEvent(ws, { waitlist_enabled: true });
    await rsvp(lined.eventId, { email: "a@example.test", ticket_type_id: lined.open });
    const waiting = await rsvp(lined.eventId, { email: "b@example.test", ticket_type_id: lined.open });
    expect(waiting.status).toBe(202);
    expect(await waiting.json()).toEqual({ status: "waitlisted", position: 1 });
  });

  test("a type's capacity below its seats taken is refused with the numbers", async () => {
    const ws = await createWorkspace(db.sql);
    const { eventId, open } = await typedEvent(ws);
    await db.sql`update event_ticket_types set capacity = 2 where id = ${open}`;
    await rsvp(eventId, { email: "a@example.test", ticket_type_id: open });
    await rsvp(eventId, { email: "b@example.test", ticket_type_id: open });
    const { saveTicketType, ticketTypeFormSchema } = await import("@/lib/events/ticket-types/ticket-types");
    const result = await withUser(ws.owner.claims, (tx) =>
      saveTicketType(tx, {
        workspaceId: ws.id,
        eventId,
        ticketTypeId: open,
        type: ticketTypeFormSchema.parse({ name: "Standard", capacity: "1" }),
      }),
    );
    expect("error" in result && result.error.message).toBe(
      "Standard has 2 seats taken: its capacity cannot go below 2 (asked for 1).",
    );
    const [{ capacity }] = await db.sql`select capacity from event_ticket_types where id = ${open}`;
    expect(capacity).toBe(2);
  });
});
