import { beforeAll, describe, expect, test } from "vitest";
import { V1_OPERATIONS } from "@/lib/api/v1";
import type { AnyApiOperation } from "@/lib/api/v1/define";
import * as contactsApi from "@/lib/api/v1/contacts";
import * as segmentsApi from "@/lib/api/v1/segments";
import { API_SCOPES } from "@/lib/api/v1/scopes";
import { apiKeyFor, callOp, type TestKey } from "../helpers/api-v1";
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
  const [campaign] =
    await db.sql`insert into campaigns (workspace_id, name) values (${ws.id}, 'Drip') returning id`;
  ids.campaign = campaign.id;
  for (const c of contacts)
    await db.sql`insert into campaign_enrollments (workspace_id, campaign_id, contact_id)
                 values (${ws.id}, ${ids.campaign}, ${c.id})`;
  // recurring money: two subscriptions of the contact, each with its membership
  const [plan] = await db.sql`insert into plans (workspace_id, payproc_price_id, name)
                              values (${ws.id}, 'price_forged', 'Friends') returning id`;
  for (const n of [1, 2]) {
    const [sub] = await db.sql`
      insert into subscriptions (workspace_id, contact_id, plan_id, payproc_subscription_id, payproc_customer_id,
                                 status, started_at, synced_through)
      values (${ws.id}, ${ids.contact}, ${plan.id}, ${`sub_forged_${n}`}, 'cus_forged', 'active',
              now() - ${`${n} days`}::interval, now()) returning id`;
    await db.sql`insert into memberships (workspace_id, subscription_id, contact_id, plan_id, status, member_since)
                 values (${ws.id}, ${sub.id}, ${ids.contact}, ${plan.id}, 'active', now() - ${`${n} days`}::interval)`;
  }
  for (const n of [1, 2]) {
    await db.sql`insert into webhook_endpoints (workspace_id, url, event_types, secret_ciphertext)
                 values (${ws.id}, ${`https://hooks.example.org/${n}`}, '{contact.created}', 'x')`;
    await db.sql`insert into segments (workspace_id, name, filter)
                 values (${ws.id}, ${`S${n}`}, '{"version":1,"root":{"kind":"group","op":"and","not":false,"conditions":[]}}')`;
  }
});

/**
 * Every list of V1_OPERATIONS (an operation whose query takes a `cursor`), with the row its `{id}`
 * names and the orders worth walking besides the default, by operationId. A list without an entry
 * here is walked in its default order with no path id.
 */
const LIST_FIXTURES: Record<string, { id?: string; orders?: Record<string, string>[] }> = {
  listContacts: { orders: [{ sort_by: "source" }, { sort_by: "name" }] },
  listContactTimeline: { id: "contact" },
  listContactTransactions: { id: "contact" },
  listEvents: { orders: [{ sort_by: "created_at" }] },
  listEventRegistrations: { id: "event" },
  listFormSubmissions: { id: "form" },
  listCampaignEnrollments: { id: "campaign" },
  listContactMemberships: { id: "contact" },
};
const isList = (op: AnyApiOperation) =>
  op.method === "get" && op.query !== undefined && "cursor" in ((op.query as { shape?: object }).shape ?? {});
const LISTS: [string, AnyApiOperation, Record<string, string>, Record<string, string>][] =
  V1_OPERATIONS.filter(isList).flatMap((op) => {
    const f = LIST_FIXTURES[op.operationId] ?? {};
    const params: Record<string, string> = f.id ? { id: f.id } : {};
    return [{}, ...(f.orders ?? [])].map(
      (order) =>
        [
          `${op.method.toUpperCase()} ${op.path}${order.sort_by ? ` by ${order.sort_by}` : ""}`,
          op,
          params,
          order,
        ] as [string, AnyApiOperation, Record<string, string>, Record<string, string>],
    );
  });

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
  test("every list of V1_OPERATIONS is walked", () => {
    expect(LISTS.length).toBeGreaterThanOrEqual(12);
  });

  test.each(LISTS)("%s", async (_, op, params, query) => {
    const p = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, ids[v]]));
    const first = await callOp(op, {
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
        const res = await callOp(op, {
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
    const res = await callOp(segmentsApi.create, {
      key: key.key,
      body: { name: `Impossible ${day}`, filter: window(day) },
    });
    expect(res.status).toBe(400);
    expect(await db.sql`select 1 from segments where name = ${`Impossible ${day}`}`).toHaveLength(0);
  });

  test("a filter written around the API (a member over PostgREST) with year 0: count, list and contacts answer, never a 500", async () => {
    const [g] = await db.sql`insert into segments (workspace_id, name, filter)
                             values (${ws.id}, 'Year zero', ${db.sql.json(window("0000-01-01"))}) returning id`;
    const count = await callOp(segmentsApi.count, {
      key: key.key,
      params: { id: g.id },
    });
    expect(count.status).toBeLessThan(500);
    const list = await callOp(segmentsApi.list, {
      key: key.key,
      query: { limit: "100" },
    });
    expect(list.status).toBe(200);
    const contacts = await callOp(contactsApi.list, {
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
    const res = await callOp(contactsApi.create, {
      key: key.key,
      body: { email: "year-zero@example.org", custom_fields: { joined: "0000-01-01" } },
    });
    expect(res.status).toBe(400);
    expect(await db.sql`select 1 from contacts where email = 'year-zero@example.org'`).toHaveLength(0);
  });
});
