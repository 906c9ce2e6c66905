import { beforeAll, describe, expect, test } from "vitest";
import * as contactsApi from "@/lib/api/v1/contacts";
import * as segmentsApi from "@/lib/api/v1/segments";
import * as timelineApi from "@/lib/api/v1/timeline";
import * as webhookEndpointsApi from "@/lib/api/v1/webhook-endpoints";
import { API_SCOPES, type ApiScope } from "@/lib/api/v1/scopes";
import { apiKeyFor, callOp, expectDocumented, type TestKey } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";
import { createForm } from "../helpers/forms";

/**
 * Scopes cover what they label (docs/decisions.md, "Scopes cover what they label"; docs/api.md,
 * "Scopes and the data they reach"): a key reads another area's data only with that area's scope,
 * through the timeline, a segment's count or a webhook subscription alike; and an idempotent
 * answer keeps no secret in clear.
 */
const db = setupTestDatabase();

let ws: TestWorkspace;
let contactId: string;
let eventId: string;
const PAYLOAD_MARK = "payload-mark-7731";
const CONSENT_IP = "203.0.113.77";

beforeAll(async () => {
  process.env.APP_URL = "http://crm.test";
  process.env.API_RATE_LIMIT = "100000";
  ws = await createWorkspace(db.sql);
  const c = await createContact(db.sql, ws.id);
  contactId = c.id;
  const form = await createForm(db.sql, ws.id);
  [{ id: eventId }] =
    await db.sql`insert into events (workspace_id, name) values (${ws.id}, 'Gala') returning id`;
  await db.sql`update contacts set opt_in_ip = ${CONSENT_IP} where id = ${c.id}`;
  await db.sql`insert into consent_events (workspace_id, contact_id, action, flow, source, ip)
               values (${ws.id}, ${c.id}, 'subscribed', 'form', 'Form', ${CONSENT_IP})`;
  await db.sql`insert into form_submissions (workspace_id, form_id, contact_id, payload, submission_type)
               values (${ws.id}, ${form.id}, ${c.id}, ${db.sql.json({ email: c.email, message: PAYLOAD_MARK })}, 'direct')`;
  await db.sql`insert into event_registrations (workspace_id, event_id, contact_id, amount_paid)
               values (${ws.id}, ${eventId}, ${c.id}, '12.50')`;
  await db.sql`insert into transactions (workspace_id, contact_id, amount_paid, amount_refunded, currency)
               values (${ws.id}, ${c.id}, '4321.09', '10.00', 'usd')`;
  await db.sql`insert into email_sends (workspace_id, contact_id, to_email, kind, status, subject)
               values (${ws.id}, ${c.id}, ${c.email}, 'marketing', 'sent', 'Autumn news')`;
});

const key = (scopes: readonly ApiScope[]): Promise<TestKey> => apiKeyFor(db.sql, ws.id, scopes);

async function timeline(k: TestKey, query: Record<string, string> = {}) {
  const res = await callOp(timelineApi.list, {
    key: k.key,
    params: { id: contactId },
    query: { limit: "100", ...query },
  });
  return { status: res.status, body: await expectDocumented(res, "GET", timelineApi.list.path) };
}

describe("a contacts:read key reads no payment amount and no form payload", () => {
  test("the timeline: no payment, form, event or email entry, and no consent IP", async () => {
    const narrow = await key(["contacts:read"]);
    const { status, body } = await timeline(narrow);
    expect(status).toBe(200);
    const kinds = (body as { data: { kind: string }[] }).data.map((e) => e.kind);
    expect(kinds).toContain("consent");
    expect(kinds.filter((k) => ["payment", "form", "event", "email"].includes(k))).toEqual([]);
    const text = JSON.stringify(body);
    for (const secret of ["4321.09", "4,321.09", PAYLOAD_MARK, "12.50", "Autumn news", CONSENT_IP])
      expect(text).not.toContain(secret);
  });

  test("the same timeline with every scope shows each kind (the check above can fail)", async () => {
    const { body } = await timeline(await key(API_SCOPES));
    const kinds = new Set((body as { data: { kind: string }[] }).data.map((e) => e.kind));
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining(["consent", "email", "event", "form", "payment"]),
    );
    const text = JSON.stringify(body);
    expect(text).toContain(PAYLOAD_MARK);
    expect(text).not.toContain(CONSENT_IP); // no key reads the address a consent came from
  });

  test("asking for a kind the key's scopes do not cover is 403 forbidden", async () => {
    const narrow = await key(["contacts:read"]);
    for (const kind of ["payment", "form", "event", "email", "note,payment"]) {
      const { status, body } = await timeline(narrow, { kind });
      expect(status, kind).toBe(403);
      expect(body).toMatchObject({ error: { code: "forbidden" } });
    }
    const paying = await key(["contacts:read", "transactions:read"]);
    const { status, body } = await timeline(paying, { kind: "payment" });
    expect(status).toBe(200);
    expect(JSON.stringify(body)).toContain("4,321.09");
  });

  test("the contact itself carries no amount, payload or consent IP", async () => {
    const narrow = await key(["contacts:read"]);
    const one = await callOp(contactsApi.get, {
      key: narrow.key,
      params: { id: contactId },
    });
    const all = await callOp(contactsApi.list, { key: narrow.key });
    expect(one.status).toBe(200);
    const text = JSON.stringify([await one.json(), await all.json()]);
    expect(text).toContain(contactId);
    for (const secret of ["4321.09", PAYLOAD_MARK, CONSENT_IP]) expect(text).not.toContain(secret);
    const [row] = await db.sql`select host(opt_in_ip) as ip from contacts where id = ${contactId}`;
    expect(row.ip).toBe(CONSENT_IP); // kept for the workspace, only not answered to a key
  });
});

const purchased = (minAmount: number) => ({
  version: 1,
  root: {
    kind: "group",
    op: "and",
    not: false,
    conditions: [{ kind: "purchased", not: false, minAmount }],
  },
});

describe("a segment condition on another area's data needs that area's scope (no count oracle)", () => {
  test("saving a purchase condition without transactions:read is 403, nothing stored", async () => {
    const writer = await key(["contacts:read", "contacts:write"]);
    for (const [name, filter] of [
      ["Big spenders", purchased(4000)],
      [
        "Form people",
        {
          version: 1,
          root: {
            kind: "group",
            op: "and",
            not: false,
            conditions: [{ kind: "form_submitted", not: false }],
          },
        },
      ],
      [
        "Openers",
        {
          version: 1,
          root: {
            kind: "group",
            op: "and",
            not: false,
            conditions: [{ kind: "email_engagement", not: false, event: "opened" }],
          },
        },
      ],
    ] as const) {
      const res = await callOp(segmentsApi.create, {
        key: writer.key,
        body: { name, filter },
      });
      expect(res.status, name).toBe(403);
      expect(
        await db.sql`select 1 from segments where workspace_id = ${ws.id} and name = ${name}`,
      ).toHaveLength(0);
    }
    const paying = await key(["contacts:read", "contacts:write", "transactions:read"]);
    const ok = await callOp(segmentsApi.create, {
      key: paying.key,
      body: { name: "Big spenders", filter: purchased(4000) },
    });
    expect(ok.status).toBe(201);
  });

  test("a member's purchase segment: its count, its contacts and a narrowing PATCH are 403 to a contacts key", async () => {
    const [g] = await db.sql`insert into segments (workspace_id, name, filter)
                             values (${ws.id}, 'Member made', ${db.sql.json(purchased(4000))}) returning id`;
    const narrow = await key(["contacts:read", "contacts:write"]);
    // the oracle: a minimum of 4,000 counts 1, of 5,000 counts 0
    const count = await callOp(segmentsApi.count, {
      key: narrow.key,
      params: { id: g.id },
    });
    expect(count.status).toBe(403);
    const listed = await callOp(contactsApi.list, {
      key: narrow.key,
      query: { segment_id: g.id },
    });
    expect(listed.status).toBe(403);
    const patched = await callOp(segmentsApi.update, {
      key: narrow.key,
      params: { id: g.id },
      body: { filter: purchased(5000) },
    });
    expect(patched.status).toBe(403);
    const [row] = await db.sql`select filter from segments where id = ${g.id}`;
    expect(row.filter.root.conditions[0].minAmount).toBe(4000);
    const byEvent = await callOp(contactsApi.list, {
      key: narrow.key,
      query: { event_id: eventId },
    });
    expect(byEvent.status).toBe(403);

    const paying = await key(["contacts:read", "transactions:read"]);
    const counted = await callOp(segmentsApi.count, {
      key: paying.key,
      params: { id: g.id },
    });
    expect(await counted.json()).toEqual({ count: 1 });
  });
});

describe("webhooks:write subscribes only to the events the key's read scopes cover", () => {
  test("a webhooks key without transactions:read cannot subscribe to transaction.created: 403, nothing stored", async () => {
    const hooks = await key(["webhooks:write", "contacts:read"]);
    const refused = await callOp(webhookEndpointsApi.create, {
      key: hooks.key,
      body: {
        url: "https://hooks.example.org/money",
        event_types: ["contact.created", "transaction.created"],
      },
    });
    expect(refused.status).toBe(403);
    expect(
      await db.sql`select 1 from webhook_endpoints where url = 'https://hooks.example.org/money'`,
    ).toHaveLength(0);
    const bare = await key(["webhooks:write"]);
    const none = await callOp(webhookEndpointsApi.create, {
      key: bare.key,
      body: { url: "https://hooks.example.org/people", event_types: ["contact.created"] },
    });
    expect(none.status).toBe(403);
    const allowed = await callOp(webhookEndpointsApi.create, {
      key: hooks.key,
      body: { url: "https://hooks.example.org/people", event_types: ["contact.created", "contact.updated"] },
    });
    expect(allowed.status).toBe(201);
  });
});

describe("an idempotent answer keeps no secret in clear", () => {
  test("the endpoint's signing secret is not stored readable in api_idempotency_keys; a replay still answers it", async () => {
    const hooks = await key(["webhooks:write", "contacts:read"]);
    const request = {
      key: hooks.key,
      headers: { "Idempotency-Key": "endpoint-once" },
      body: { url: "https://hooks.example.org/idem", event_types: ["contact.created"] },
    };
    const first = await callOp(webhookEndpointsApi.create, request);
    expect(first.status).toBe(201);
    const { secret } = (await first.json()) as { secret: string };
    expect(secret.length).toBeGreaterThan(20);
    const [stored] = await db.sql`select response::text as response from api_idempotency_keys
                                  where api_key_id = ${hooks.id} and idempotency_key = 'endpoint-once'`;
    expect(stored.response).not.toContain(secret);
    expect(stored.response).not.toContain(secret.replace(/^whsec_/, ""));
    const replay = await callOp(webhookEndpointsApi.create, request);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(((await replay.json()) as { secret: string }).secret).toBe(secret);
    expect(
      await db.sql`select 1 from webhook_endpoints where url = 'https://hooks.example.org/idem'`,
    ).toHaveLength(1);
  });
});
