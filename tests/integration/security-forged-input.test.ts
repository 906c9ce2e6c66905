import { beforeAll, describe, expect, test } from "vitest";
import { GET as listContacts, POST as createContact } from "@/app/api/v1/contacts/route";
import { GET as listTimeline } from "@/app/api/v1/contacts/[id]/timeline/route";
import { GET as listTransactions } from "@/app/api/v1/contacts/[id]/transactions/route";
import { GET as listEvents } from "@/app/api/v1/events/route";
import { GET as listRegistrations } from "@/app/api/v1/events/[id]/registrations/route";
import { GET as listForms } from "@/app/api/v1/forms/route";
import { GET as listSubmissions } from "@/app/api/v1/forms/[id]/submissions/route";
import { GET as countSegment } from "@/app/api/v1/segments/[id]/count/route";
import { GET as listSegments, POST as createSegment } from "@/app/api/v1/segments/route";
import { GET as listEndpoints } from "@/app/api/v1/webhook-endpoints/route";
import { API_SCOPES } from "@/lib/api/v1/scopes";
import { apiKeyFor, callV1, type TestKey } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { createContact as contactRow, createWorkspace, type TestWorkspace } from "../helpers/factories";
import { createForm } from "../helpers/forms";

/**
 * Values a client forges to reach a SQL cast (docs/decisions.md, "Forged input stops at the
 * edge"): a list cursor whose key is well-formed JSON but not a time, a number or an id Postgres
 * can read, and a calendar date no Postgres date holds (year 0, 30 February). Each is a 400 with
 * the field named, never a 500, and nothing is stored.
 */
const db = setupTestDatabase();

let ws: TestWorkspace;
let key: TestKey;
const ids: Record<string, string> = {};

beforeAll(async () => {
  process.env.APP_URL = "http://crm.test";
  process.env.API_RATE_LIMIT = "100000";
  ws = await createWorkspace(db.sql);
  key = await apiKeyFor(db.sql, ws.id, API_SCOPES);
  const contacts = [await contactRow(db.sql, ws.id), await contactRow(db.sql, ws.id)];
  ids.contact = contacts[0].id;
  for (const n of [1, 2])
    await db.sql`insert into transactions (workspace_id, contact_id, amount_paid, currency, transaction_date)
                 values (${ws.id}, ${ids.contact}, ${n}, 'usd', now() - ${`${n} hours`}::interval)`;
  for (const name of ["A", "B"]) {
    const [e] = await db.sql`insert into events (workspace_id, name, start_time, timezone, is_published)
                             values (${ws.id}, ${name}, now(), 'UTC', true) returning id`;
    ids.event = e.id;
  }
  for (const c of contacts)
    await db.sql`insert into event_registrations (workspace_id, event_id, contact_id)
                 values (${ws.id}, ${ids.event}, ${c.id})`;
  for (const _ of [1, 2]) ids.form = (await createForm(db.sql, ws.id)).id;
  for (const c of contacts)
    await db.sql`insert into form_submissions (workspace_id, form_id, contact_id, payload, ip_address, submission_type)
                 values (${ws.id}, ${ids.form}, ${c.id}, ${db.sql.json({ email: c.email })}, '203.0.113.9', 'direct')`;
  for (const n of [1, 2]) {
    await db.sql`insert into webhook_endpoints (workspace_id, url, event_types, secret_ciphertext)
                 values (${ws.id}, ${`https://hooks.example.org/${n}`}, '{contact.created}', 'x')`;
    await db.sql`insert into segments (workspace_id, name, filter)
                 values (${ws.id}, ${`S${n}`}, '{"version":1,"root":{"kind":"group","op":"and","not":false,"conditions":[]}}')`;
  }
});

type Handler = Parameters<typeof callV1>[0];
const LISTS: [string, Handler, string, Record<string, string>, Record<string, string>][] = [
  ["contacts by created_at", listContacts, "/api/v1/contacts", {}, {}],
  ["contacts by source", listContacts, "/api/v1/contacts", {}, { sort_by: "source" }],
  ["contacts by name", listContacts, "/api/v1/contacts", {}, { sort_by: "name" }],
  ["timeline", listTimeline, "/api/v1/contacts/{id}/timeline", { id: "contact" }, {}],
  ["transactions", listTransactions, "/api/v1/contacts/{id}/transactions", { id: "contact" }, {}],
  ["events", listEvents, "/api/v1/events", {}, {}],
  ["events by created_at", listEvents, "/api/v1/events", {}, { sort_by: "created_at" }],
  ["registrations", listRegistrations, "/api/v1/events/{id}/registrations", { id: "event" }, {}],
  ["forms", listForms, "/api/v1/forms", {}, {}],
  ["submissions", listSubmissions, "/api/v1/forms/{id}/submissions", { id: "form" }, {}],
  ["webhook endpoints", listEndpoints, "/api/v1/webhook-endpoints", {}, {}],
  ["segments", listSegments, "/api/v1/segments", {}, {}],
];

const decode = (cursor: string): unknown[] => JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
const encode = (key: unknown[]) => Buffer.from(JSON.stringify(key), "utf8").toString("base64url");

const FORGED_TIMES = [
  "2026-99-01 00:00:00+00",
  "2026-02-30 00:00:00+00",
  "0000-01-01 00:00:00+00",
  "2026-01-01 25:61:00+00",
  "2026-01-01 00:00:00+99",
];
const FORGED_MICROS = ["99999999999999999999", "-9999999999999999999", "1e9", "12.5", ""];
const FORGED_IDS = ["not-an-id", "00000000-0000-4000-8000-00000000000g"];

/** Every forgery of one key element, by what the element is: a time, microseconds, an id, a flag or text. */
function forgeries(value: unknown): unknown[] {
  if (typeof value === "boolean") return ["true", 1];
  if (typeof value !== "string") return [];
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) return FORGED_TIMES;
  if (/^-?\d+$/.test(value)) return FORGED_MICROS;
  if (/^[0-9a-f-]{36}$/i.test(value)) return FORGED_IDS;
  return ["a\u0000b"];
}

describe("a forged cursor is a 400 on every list, never a 500", () => {
  test.each(LISTS)("%s", async (_, handler, path, params, query) => {
    const p = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, ids[v]]));
    const first = await callV1(handler, "GET", path, {
      key: key.key,
      params: p,
      query: { ...query, limit: "1" },
    });
    expect(first.status).toBe(200);
    const { next_cursor } = (await first.json()) as { next_cursor: string | null };
    expect(next_cursor, "the list has a second page").toBeTruthy();
    const real = decode(next_cursor!);
    let tried = 0;
    for (let i = 1; i < real.length; i++)
      for (const forged of forgeries(real[i])) {
        const cursor = encode(real.map((v, j) => (j === i ? forged : v)));
        const res = await callV1(handler, "GET", path, {
          key: key.key,
          params: p,
          query: { ...query, cursor },
        });
        expect(res.status, `${JSON.stringify(forged)} at ${i}`).toBe(400);
        expect(await res.json()).toMatchObject({
          error: { code: "invalid_request", fields: { cursor: expect.any(String) } },
        });
        tried++;
      }
    expect(tried, "each list's cursor holds an id and a sort key").toBeGreaterThanOrEqual(
      FORGED_IDS.length + 2,
    );
  });
});

const window = (onOrAfter: string) => ({
  version: 1,
  root: {
    kind: "group",
    op: "and",
    not: false,
    conditions: [{ kind: "created", not: false, window: { onOrAfter } }],
  },
});

describe("a segment with an impossible date is refused, and one stored anyway breaks nothing", () => {
  test.each(["0000-01-01", "2026-02-30", "2026-13-01"])("%s: 400, no segment stored", async (day) => {
    const res = await callV1(createSegment, "POST", "/api/v1/segments", {
      key: key.key,
      body: { name: `Impossible ${day}`, filter: window(day) },
    });
    expect(res.status).toBe(400);
    expect(await db.sql`select 1 from segments where name = ${`Impossible ${day}`}`).toHaveLength(0);
  });

  test("a filter written around the API (a member over PostgREST) with year 0: count, list and contacts answer, never a 500", async () => {
    const [g] = await db.sql`insert into segments (workspace_id, name, filter)
                             values (${ws.id}, 'Year zero', ${db.sql.json(window("0000-01-01"))}) returning id`;
    const count = await callV1(countSegment, "GET", "/api/v1/segments/{id}/count", {
      key: key.key,
      params: { id: g.id },
    });
    expect(count.status).toBeLessThan(500);
    const list = await callV1(listSegments, "GET", "/api/v1/segments", {
      key: key.key,
      query: { limit: "100" },
    });
    expect(list.status).toBe(200);
    const contacts = await callV1(listContacts, "GET", "/api/v1/contacts", {
      key: key.key,
      query: { segment_id: g.id },
    });
    expect(contacts.status).toBeLessThan(500);
    await db.sql`delete from segments where id = ${g.id}`;
  });
});

describe("a custom date field with an impossible date is refused", () => {
  test("year 0 in a date field: 400 custom_fields, no contact stored", async () => {
    await db.sql`insert into custom_fields (workspace_id, key, label, field_type)
                 values (${ws.id}, 'joined', 'Joined', 'date')`;
    const res = await callV1(createContact, "POST", "/api/v1/contacts", {
      key: key.key,
      body: { email: "year-zero@example.org", custom_fields: { joined: "0000-01-01" } },
    });
    expect(res.status).toBe(400);
    expect(await db.sql`select 1 from contacts where email = 'year-zero@example.org'`).toHaveLength(0);
  });
});
