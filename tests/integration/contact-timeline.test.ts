import { beforeAll, describe, expect, test } from "vitest";
import { GET as listTimeline } from "@/app/api/v1/contacts/[id]/timeline/route";
import {
  decodePosition,
  encodePosition,
  getContactTimeline,
  parseKinds,
} from "@/lib/contacts/get-contact-timeline";
import { compareEntries, type TimelineKind, type TimelinePosition } from "@/lib/contacts/timeline/types";
import { withService, withUser } from "@/lib/db/doors";
import type { Sql } from "@/lib/db/client";
import { apiKeyFor, callV1, expectDocumented } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace, type TestUser } from "../helpers/factories";

const db = setupTestDatabase();

const MERGED = "0b5c3f0e-8a4e-4f7e-9d6c-2a1b3c4d5e6f";
const t = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));

/** One row of every kind for the contact, the i-th at `at(i)`; returns how many rows it wrote. */
async function everyKind(sql: Sql, ws: string, contact: string, at: (i: number) => Date): Promise<number> {
  const [form] =
    await sql`insert into forms (workspace_id, name) values (${ws}, 'Newsletter <b>') returning id`;
  const [event] = await sql`insert into events (workspace_id, name) values (${ws}, 'Gala') returning id`;
  const [product] =
    await sql`insert into products (workspace_id, name) values (${ws}, 'Ticket') returning id`;
  await sql`insert into notes (workspace_id, contact_id, content, content_text, created_at)
            values (${ws}, ${contact}, '<p>called</p>', 'called', ${at(1)})`;
  await sql`insert into consent_events (workspace_id, contact_id, action, flow, source, created_at)
            values (${ws}, ${contact}, 'subscribed', 'form', 'Form', ${at(2)})`;
  await sql`insert into form_submissions (workspace_id, form_id, contact_id, payload, created_at)
            values (${ws}, ${form.id}, ${contact}, ${sql.json({ email: "a@example.test", message: "<script>alert(1)</script>" })}, ${at(3)})`;
  await sql`insert into event_registrations (workspace_id, event_id, contact_id, amount_paid, created_at)
            values (${ws}, ${event.id}, ${contact}, '12.50', ${at(4)})`;
  await sql`insert into transactions (workspace_id, contact_id, product_id, amount_paid, amount_refunded, currency, transaction_date)
            values (${ws}, ${contact}, ${product.id}, '30.00', '10.00', 'eur', ${at(5)})`;
  const [send] =
    await sql`insert into email_sends (workspace_id, contact_id, to_email, kind, status, subject, created_at)
            values (${ws}, ${contact}, 'a@example.test', 'marketing', 'sent', 'Autumn', ${at(6)}) returning id`;
  await sql`insert into email_events (workspace_id, email_send_id, type, occurred_at)
            values (${ws}, ${send.id}, 'bounced', ${at(7)})`;
  await sql`insert into audit_log (workspace_id, action, target_type, target_id, after, created_at)
            values (${ws}, 'contact.source_changed', 'contact', ${contact}, ${sql.json({ source: "import" })}, ${at(8)})`;
  // as the merge writes it: the merged contact before, what came from it and what moved after
  await sql`insert into audit_log (workspace_id, action, target_type, target_id, before, after, created_at)
            values (${ws}, 'contact.merged', 'contact', ${contact}, ${sql.json({ merged_contact_id: MERGED })},
                    ${sql.json({ from_merged_contact: ["phone", "city"], moved: { notes: 2, tasks: 0 }, consent: "unchanged" })}, ${at(9)})`;
  return 9;
}

async function timeline(
  user: TestUser,
  workspaceId: string,
  contactId: string,
  opts: { before?: TimelinePosition | null; limit?: number; kinds?: TimelineKind[] } = {},
) {
  return withUser(user.claims, (tx) => getContactTimeline(tx, { workspaceId, contactId, ...opts }));
}

/** Every page of `limit` entries, following `next` to the end. */
async function walk(user: TestUser, ws: string, contact: string, limit: number, kinds?: TimelineKind[]) {
  const seen: string[] = [];
  let before: TimelinePosition | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const page: Awaited<ReturnType<typeof getContactTimeline>> = await timeline(user, ws, contact, {
      before,
      limit,
      kinds,
    });
    expect(page.data.length).toBeLessThanOrEqual(limit);
    seen.push(...page.data.map((e) => `${e.kind}:${e.id}`));
    if (!page.next) return seen;
    // the cursor survives its trip through a URL
    before = decodePosition(encodePosition(page.next));
  }
  throw new Error("the timeline did not end");
}

describe("the contact timeline (docs/decisions.md, 'Contact timeline')", () => {
  test("every kind appears, newest first, in its own words: notes, consent, submissions with their payload, registrations, purchases and refunds, emails and their bounces, merges and source changes", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    await everyKind(db.sql, ws.id, c.id, t);
    // not this contact's, or not a change the timeline shows
    const other = await createContact(db.sql, ws.id);
    await db.sql`insert into notes (workspace_id, contact_id, content, content_text) values (${ws.id}, ${other.id}, '<p>x</p>', 'x')`;
    await db.sql`insert into audit_log (workspace_id, action, target_type, target_id)
                 values (${ws.id}, 'contact.updated', 'contact', ${c.id})`;

    const { data, next } = await timeline(ws.owner, ws.id, c.id);
    expect(next).toBeNull();
    expect(data.map((e) => [e.kind, e.text])).toEqual([
      [
        "change",
        // jsonb keeps keys shorter first
        `Contacts merged. merged contact id: ${MERGED}. moved: notes 2, tasks 0. consent: unchanged. from merged contact: phone, city`,
      ],
      ["change", "Source changed. Source: import"],
      ["email", "Email bounced. Subject: Autumn"],
      ["email", "Email sent. Subject: Autumn"],
      ["payment", "Purchased Ticket. Paid 30.00 EUR. Refunded 10.00 EUR"],
      ["event", "RSVP to Gala. Paid $12.50"],
      ["form", "Form submitted: Newsletter <b>. email: a@example.test. message: <script>alert(1)</script>"],
      ["consent", "Subscribed to marketing email. Source: Form"],
      ["note", "called"],
    ]);
    const form = data.find((e) => e.kind === "form")!;
    expect(form.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(form.html).not.toContain("<script");
    expect(form.html).toContain("Newsletter &lt;b&gt;");
    expect(data.map((e) => e.occurredAt.toISOString())).toEqual(
      [9, 8, 7, 6, 5, 4, 3, 2, 1].map((m) => t(m).toISOString()),
    );
  });

  test("a submission's payload is bounded: 20 fields at most, long keys and values clipped", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const [form] = await db.sql`insert into forms (workspace_id, name) values (${ws.id}, 'Big') returning id`;
    const payload = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [`field${String(i).padStart(2, "0")}`, "v".repeat(1000)]),
    );
    await db.sql`insert into form_submissions (workspace_id, form_id, contact_id, payload)
                 values (${ws.id}, ${form.id}, ${c.id}, ${db.sql.json(payload)})`;
    const [entry] = (await timeline(ws.owner, ws.id, c.id)).data;
    expect(entry.html.match(/<li>/g)).toHaveLength(21);
    expect(entry.html).toContain(`field00: ${"v".repeat(300)}…</li>`);
    expect(entry.html).not.toContain("field20");
    expect(entry.html).toContain("<li>and 5 more fields</li>");
  });

  test("paging: pages of 1, 2 and 4 return every entry once, in (time, kind, id) order, with every kind at one instant", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const same = t(30);
    let written = 0;
    for (let i = 0; i < 3; i++) written += await everyKind(db.sql, ws.id, c.id, () => same);
    const all = await timeline(ws.owner, ws.id, c.id, { limit: 200 });
    expect(all.data).toHaveLength(written);
    expect(all.data).toEqual([...all.data].sort(compareEntries));
    const everything = all.data.map((e) => `${e.kind}:${e.id}`);
    expect(new Set(everything).size).toBe(written);
    for (const limit of [1, 2, 4]) expect(await walk(ws.owner, ws.id, c.id, limit)).toEqual(everything);
  });

  test("a check-in at an event is an entry of its own at its time, even at the instant of its registration (docs/decisions.md, 'Segments')", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const [gala] =
      await db.sql`insert into events (workspace_id, name) values (${ws.id}, 'Gala') returning id`;
    const [fair] =
      await db.sql`insert into events (workspace_id, name) values (${ws.id}, 'Fair') returning id`;
    await db.sql`insert into event_registrations (workspace_id, event_id, contact_id, created_at, checked_in_at)
                 values (${ws.id}, ${gala.id}, ${c.id}, ${t(1)}, ${t(5)}),
                        (${ws.id}, ${fair.id}, ${c.id}, ${t(7)}, ${t(7)})`;
    const { data } = await timeline(ws.owner, ws.id, c.id);
    expect(data.map((e) => [e.text, e.occurredAt.toISOString()]).sort()).toEqual(
      [
        ["Checked in at Fair", t(7).toISOString()],
        ["RSVP to Fair", t(7).toISOString()],
        ["Checked in at Gala", t(5).toISOString()],
        ["RSVP to Gala", t(1).toISOString()],
      ].sort(),
    );
    const everything = data.map((e) => `${e.kind}:${e.id}`);
    expect(new Set(everything).size).toBe(4);
    expect(await walk(ws.owner, ws.id, c.id, 1)).toEqual(everything);
  });

  test("the kind filter keeps only the chosen kinds, and pages within them", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    for (let i = 0; i < 2; i++) await everyKind(db.sql, ws.id, c.id, (m) => t(m * 2 + i));
    const { data } = await timeline(ws.owner, ws.id, c.id, { kinds: ["form", "payment"] });
    expect(data.map((e) => e.kind).sort()).toEqual(["form", "form", "payment", "payment"]);
    expect(await walk(ws.owner, ws.id, c.id, 1, ["email"])).toHaveLength(4);
    expect(parseKinds(["form,payment", "nonsense", "form"])).toEqual(["form", "payment"]);
  });

  test("another workspace's rows never appear: not through its own workspace id, not through the victim's", async () => {
    const victim = await createWorkspace(db.sql);
    const c = await createContact(db.sql, victim.id);
    await everyKind(db.sql, victim.id, c.id, t);
    const attacker = await createWorkspace(db.sql);
    const theirs = await createContact(db.sql, attacker.id);
    await everyKind(db.sql, attacker.id, theirs.id, t);
    expect((await timeline(attacker.owner, attacker.id, c.id)).data).toEqual([]);
    expect((await timeline(attacker.owner, victim.id, c.id)).data).toEqual([]);
    const own = await timeline(attacker.owner, attacker.id, theirs.id);
    expect(own.data).toHaveLength(9);
    const victimIds = new Set((await timeline(victim.owner, victim.id, c.id)).data.map((e) => e.id));
    expect(own.data.filter((e) => victimIds.has(e.id))).toEqual([]);
  });

  test("the audit log is owners-only: a member's timeline has every other kind but no merges or source changes", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const c = await createContact(db.sql, ws.id);
    await everyKind(db.sql, ws.id, c.id, t);
    const kinds = (await timeline(member, ws.id, c.id)).data.map((e) => e.kind);
    expect(kinds).toHaveLength(7);
    expect(kinds).not.toContain("change");
  });

  test("an email event carries its send's contact: set when stored, moved with the send (a merge), cleared when the contact is deleted", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const winner = await createContact(db.sql, ws.id);
    await everyKind(db.sql, ws.id, c.id, t);
    const eventContact = async () =>
      (await db.sql`select contact_id from email_events where workspace_id = ${ws.id}`).map(
        (r) => r.contact_id,
      );
    expect(await eventContact()).toEqual([c.id]);
    // a merge moves the send (through the service door: members cannot update sends or events)
    await withService(
      (tx) => tx`update email_sends set contact_id = ${winner.id} where contact_id = ${c.id}`,
    );
    expect(await eventContact()).toEqual([winner.id]);
    const moved = await timeline(ws.owner, ws.id, winner.id, { kinds: ["email"] });
    expect(moved.data.map((e) => e.text)).toEqual([
      "Email bounced. Subject: Autumn",
      "Email sent. Subject: Autumn",
    ]);
    expect((await timeline(ws.owner, ws.id, c.id, { kinds: ["email"] })).data).toEqual([]);
    await db.sql`delete from contacts where id = ${winner.id}`;
    expect(await eventContact()).toEqual([null]);
  });

  test("a cursor from a URL is a time, a known kind and an id of that kind's form, or nothing", () => {
    const id = "0b5c3f0e-8a4e-4f7e-9d6c-2a1b3c4d5e6f";
    expect(decodePosition(`123_note_${id}`)).toEqual({ micros: 123n, kind: "note", id });
    expect(decodePosition("123_change_00000000000000000042")).toMatchObject({ kind: "change" });
    expect(decodePosition(`123_admin_${id}`)).toBeNull();
    expect(decodePosition("123_change_42")).toBeNull();
    expect(decodePosition(`123_note_1' or 1=1`)).toBeNull();
  });
});

describe("GET /api/v1/contacts/{id}/timeline (docs/api.md)", () => {
  beforeAll(() => {
    process.env.APP_URL = "http://crm.test";
    process.env.API_RATE_LIMIT = "100000";
  });
  const path = "/api/v1/contacts/{id}/timeline";

  test("walks the whole timeline by cursor, as documented, with the kind filter; bad cursors and kinds are 400, another workspace's contact 404", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    for (let i = 0; i < 2; i++) await everyKind(db.sql, ws.id, c.id, () => t(40));
    // every kind: the key reads every area (docs/api.md, "Scopes and the data they reach")
    const key = await apiKeyFor(db.sql, ws.id, [
      "contacts:read",
      "events:read",
      "transactions:read",
      "forms:read",
      "email:read",
    ]);
    const walkApi = async (query: Record<string, string>) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 100; i++) {
        const res = await callV1(listTimeline, "GET", path, {
          key: key.key,
          params: { id: c.id },
          query: { ...query, ...(cursor ? { cursor } : {}) },
        });
        expect(res.status).toBe(200);
        const page = (await expectDocumented(res, "GET", path)) as {
          data: { kind: string; id: string }[];
          next_cursor: string | null;
        };
        seen.push(...page.data.map((e) => `${e.kind}:${e.id}`));
        cursor = page.next_cursor;
        if (!cursor) return seen;
      }
      throw new Error("the walk did not end");
    };
    const all = (await timeline(ws.owner, ws.id, c.id, { limit: 200 })).data.map((e) => `${e.kind}:${e.id}`);
    expect(all).toHaveLength(18);
    expect(await walkApi({ limit: "4" })).toEqual(all);
    expect(await walkApi({ limit: "3", kind: "form,change" })).toEqual(
      all.filter((e) => e.startsWith("form:") || e.startsWith("change:")),
    );

    for (const query of [{ cursor: "nonsense" }, { kind: "note,secrets" }] as Record<string, string>[]) {
      const res = await callV1(listTimeline, "GET", path, { key: key.key, params: { id: c.id }, query });
      expect(res.status).toBe(400);
      await expectDocumented(res, "GET", path);
    }
    const other = await createWorkspace(db.sql);
    const foreign = await createContact(db.sql, other.id);
    await everyKind(db.sql, other.id, foreign.id, t);
    const res = await callV1(listTimeline, "GET", path, { key: key.key, params: { id: foreign.id } });
    expect(res.status).toBe(404);
    await expectDocumented(res, "GET", path);
  });
});
