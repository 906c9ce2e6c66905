import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { GET as listEvents } from "@/app/api/v1/events/route";
import { GET as listRegistrations } from "@/app/api/v1/events/[id]/registrations/route";
import { GET as listTransactions } from "@/app/api/v1/contacts/[id]/transactions/route";
import { POST as refund } from "@/app/api/v1/transactions/[id]/refunds/route";
import { GET as listForms } from "@/app/api/v1/forms/route";
import { GET as listSubmissions } from "@/app/api/v1/forms/[id]/submissions/route";
import { GET as listEndpoints, POST as createEndpoint } from "@/app/api/v1/webhook-endpoints/route";
import { DELETE as deleteEndpoint } from "@/app/api/v1/webhook-endpoints/[id]/route";
import { GET as listSegments, POST as createSegment } from "@/app/api/v1/segments/route";
import { DELETE as deleteSegment, PATCH as patchSegment } from "@/app/api/v1/segments/[id]/route";
import { GET as countSegment } from "@/app/api/v1/segments/[id]/count/route";
import { API_SCOPES, type ApiScope } from "@/lib/adapters/v1/scopes";
import { apiKeyFor, callV1, expectDocumented } from "../helpers/api-v1";
import { fuzzInputs } from "../helpers/api-v1-fuzz";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";
import { createForm } from "../helpers/forms";

/**
 * docs/api.md under attack, for events, registrations, transactions, refunds, forms,
 * submissions and webhook endpoints: a key without the scope (403), revoked or expired (401),
 * another workspace's ids (404), and fuzzed inputs (fast-check, from the document's schemas and
 * hostile strings): never a 500, every answer as documented, nothing written outside the key's
 * workspace.
 */
const db = setupTestDatabase();

type Handler = Parameters<typeof callV1>[0];
interface Endpoint {
  handler: Handler;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  scope: ApiScope;
  /** a valid body for the write */
  body?: unknown;
  /** the id of one of the victim workspace's rows the path names */
  victimId?: () => string;
}

let ws: TestWorkspace;
let victim: TestWorkspace;
const victimRows: Record<string, string> = {};

const ENDPOINTS: Endpoint[] = [
  { handler: listEvents, method: "GET", path: "/api/v1/events", scope: "events:read" },
  {
    handler: listRegistrations,
    method: "GET",
    path: "/api/v1/events/{id}/registrations",
    scope: "events:read",
    victimId: () => victimRows.event,
  },
  {
    handler: listTransactions,
    method: "GET",
    path: "/api/v1/contacts/{id}/transactions",
    scope: "transactions:read",
    victimId: () => victimRows.contact,
  },
  {
    handler: refund,
    method: "POST",
    path: "/api/v1/transactions/{id}/refunds",
    scope: "transactions:write",
    body: { amount: "1.00" },
    victimId: () => victimRows.transaction,
  },
  { handler: listForms, method: "GET", path: "/api/v1/forms", scope: "forms:read" },
  {
    handler: listSubmissions,
    method: "GET",
    path: "/api/v1/forms/{id}/submissions",
    scope: "forms:read",
    victimId: () => victimRows.form,
  },
  {
    handler: createEndpoint,
    method: "POST",
    path: "/api/v1/webhook-endpoints",
    scope: "webhooks:write",
    body: { url: "https://hooks.example.org/a", event_types: ["contact.created"] },
  },
  { handler: listEndpoints, method: "GET", path: "/api/v1/webhook-endpoints", scope: "webhooks:write" },
  {
    handler: deleteEndpoint,
    method: "DELETE",
    path: "/api/v1/webhook-endpoints/{id}",
    scope: "webhooks:write",
    victimId: () => victimRows.endpoint,
  },
  {
    handler: createSegment,
    method: "POST",
    path: "/api/v1/segments",
    scope: "contacts:write",
    body: { name: "Everyone", filter: { version: 1, root: { kind: "group", op: "and", conditions: [] } } },
  },
  { handler: listSegments, method: "GET", path: "/api/v1/segments", scope: "contacts:read" },
  {
    handler: patchSegment,
    method: "PATCH",
    path: "/api/v1/segments/{id}",
    scope: "contacts:write",
    body: { name: "Renamed" },
    victimId: () => victimRows.segment,
  },
  {
    handler: deleteSegment,
    method: "DELETE",
    path: "/api/v1/segments/{id}",
    scope: "contacts:write",
    victimId: () => victimRows.segment,
  },
  {
    handler: countSegment,
    method: "GET",
    path: "/api/v1/segments/{id}/count",
    scope: "contacts:read",
    victimId: () => victimRows.segment,
  },
];

/** Everything of the victim workspace an API write could touch, as one comparable value. */
async function victimState() {
  const [state] = await db.sql`
    select
      (select coalesce(json_agg(t.* order by t.id), '[]') from transactions t where t.workspace_id = ${victim.id}) as transactions,
      (select coalesce(json_agg(e.* order by e.id), '[]') from webhook_endpoints e where e.workspace_id = ${victim.id}) as endpoints,
      (select coalesce(json_agg(g.* order by g.id), '[]') from segments g where g.workspace_id = ${victim.id}) as segments,
      (select count(*)::int from audit_log where workspace_id = ${victim.id}) as audit,
      (select count(*)::int from contacts where workspace_id = ${victim.id}) as contacts`;
  return state;
}

beforeAll(async () => {
  process.env.APP_URL = "http://crm.test";
  process.env.API_RATE_LIMIT = "1000000";
  ws = await createWorkspace(db.sql);
  victim = await createWorkspace(db.sql);
  const contact = await createContact(db.sql, victim.id);
  const [e] = await db.sql`insert into events (workspace_id, name, start_time, timezone)
                           values (${victim.id}, 'Theirs', now(), 'UTC') returning id`;
  const [t] = await db.sql`insert into transactions (workspace_id, contact_id, amount_paid, currency)
                           values (${victim.id}, ${contact.id}, 50, 'usd') returning id`;
  const [w] = await db.sql`insert into webhook_endpoints (workspace_id, url, event_types, secret_ciphertext)
                           values (${victim.id}, 'https://hooks.example.org/v', '{contact.created}', 'x') returning id`;
  const form = await createForm(db.sql, victim.id);
  const [g] = await db.sql`insert into segments (workspace_id, name, filter)
                           values (${victim.id}, 'Theirs', '{"version":1,"root":{"kind":"group","op":"and","not":false,"conditions":[]}}')
                           returning id`;
  Object.assign(victimRows, {
    contact: contact.id,
    event: e.id,
    transaction: t.id,
    endpoint: w.id,
    form: form.id,
    segment: g.id,
  });
});

const call = (
  e: Endpoint,
  key: string | undefined,
  id?: string,
  extra: { body?: unknown; query?: Record<string, string> } = {},
) =>
  callV1(e.handler, e.method, e.path, {
    key,
    params: e.path.includes("{id}") ? { id: id ?? "00000000-0000-4000-8000-000000000000" } : {},
    body: extra.body ?? e.body,
    query: extra.query,
  });

describe.each(ENDPOINTS)("$method $path", (e) => {
  test("missing scope: a key with every other scope is 403 forbidden, nothing changes", async () => {
    const key = await apiKeyFor(
      db.sql,
      ws.id,
      API_SCOPES.filter((s) => s !== e.scope),
    );
    const before = await victimState();
    const res = await call(e, key.key, e.victimId?.());
    expect(res.status).toBe(403);
    expect(((await expectDocumented(res, e.method, e.path)) as { error: { code: string } }).error.code).toBe(
      "forbidden",
    );
    expect(await victimState()).toEqual(before);
  });

  test("revoked, expired, unknown or no key: 401 unauthorized, alike", async () => {
    const revoked = await apiKeyFor(db.sql, ws.id, [e.scope], { revoked: true });
    const expired = await apiKeyFor(db.sql, ws.id, [e.scope], { expiresAt: new Date(Date.now() - 1000) });
    const bodies = [];
    for (const key of [revoked.key, expired.key, "evk_made_up", undefined]) {
      const res = await call(e, key);
      expect(res.status).toBe(401);
      bodies.push(await expectDocumented(res, e.method, e.path));
    }
    expect(new Set(bodies.slice(0, 3).map((b) => JSON.stringify(b))).size).toBe(1);
  });

  if (e.victimId)
    test("cross-workspace: the victim's id is 404 not_found, as a made-up one, and nothing of theirs changes", async () => {
      const key = await apiKeyFor(db.sql, ws.id, [e.scope]);
      const before = await victimState();
      const theirs = await call(e, key.key, e.victimId!());
      const madeUp = await call(e, key.key, "00000000-0000-4000-8000-000000000000");
      expect([theirs.status, madeUp.status]).toEqual([404, 404]);
      expect(await expectDocumented(theirs, e.method, e.path)).toEqual(
        await expectDocumented(madeUp, e.method, e.path),
      );
      expect(await victimState()).toEqual(before);
    });

  test("fuzzed with schema-derived and hostile inputs: never a 500, always as documented, nothing written elsewhere", async () => {
    const key = await apiKeyFor(db.sql, ws.id, API_SCOPES);
    const before = await victimState();
    await fc.assert(
      fc.asyncProperty(fuzzInputs(e.method, e.path, Object.values(victimRows)), async (input) => {
        const res = await call(e, key.key, input.id, { body: input.body, query: input.query });
        expect(res.status, JSON.stringify(input)).toBeLessThan(500);
        await expectDocumented(res, e.method, e.path);
      }),
      { numRuns: 40 },
    );
    expect(await victimState()).toEqual(before);
  });
});

describe.each(ENDPOINTS)("$method $path with only its own scope", (e) => {
  test("fuzzed with a key holding only the operation's scope: never a 500, always as documented, nothing written elsewhere", async () => {
    const key = await apiKeyFor(db.sql, ws.id, [e.scope]);
    const before = await victimState();
    await fc.assert(
      fc.asyncProperty(fuzzInputs(e.method, e.path, Object.values(victimRows)), async (input) => {
        const res = await call(e, key.key, input.id, { body: input.body, query: input.query });
        expect(res.status, JSON.stringify(input)).toBeLessThan(500);
        await expectDocumented(res, e.method, e.path);
      }),
      { numRuns: 25 },
    );
    expect(await victimState()).toEqual(before);
  });
});

describe("hostile text that Postgres cannot store", () => {
  test("a NUL character in a search or a description is 400 invalid_request, never a 500", async () => {
    const key = await apiKeyFor(db.sql, ws.id, API_SCOPES);
    const events = await callV1(listEvents, "GET", "/api/v1/events", {
      key: key.key,
      query: { search: "a\u0000b" },
    });
    expect(events.status).toBe(400);
    await expectDocumented(events, "GET", "/api/v1/events");
    const regs = await callV1(listRegistrations, "GET", "/api/v1/events/{id}/registrations", {
      key: key.key,
      params: { id: victimRows.event },
      query: { search: "\u0000" },
    });
    expect(regs.status).toBe(400);
    const hook = await callV1(createEndpoint, "POST", "/api/v1/webhook-endpoints", {
      key: key.key,
      body: { url: "https://hooks.example.org/a", event_types: ["contact.created"], description: "x\u0000" },
    });
    expect(hook.status).toBe(400);
    await expectDocumented(hook, "POST", "/api/v1/webhook-endpoints");
  });
});

describe("bodies that are not JSON", () => {
  test("a form-encoded or XML body to a write is 415 unsupported, as documented, and nothing is stored", async () => {
    const own = await createWorkspace(db.sql);
    const key = await apiKeyFor(db.sql, own.id, API_SCOPES);
    for (const type of ["application/x-www-form-urlencoded", "text/xml"]) {
      const res = await callV1(createEndpoint, "POST", "/api/v1/webhook-endpoints", {
        key: key.key,
        body: "url=https://hooks.example.org/x&event_types=contact.created",
        headers: { "content-type": type },
      });
      expect(res.status).toBe(415);
      await expectDocumented(res, "POST", "/api/v1/webhook-endpoints");
    }
    expect(await db.sql`select 1 from webhook_endpoints where workspace_id = ${own.id}`).toHaveLength(0);
  });
});
