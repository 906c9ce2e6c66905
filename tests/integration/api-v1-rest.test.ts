import { beforeAll, describe, expect, test } from "vitest";
import { GET as listEvents } from "@/app/api/v1/events/route";
import { GET as listRegistrations } from "@/app/api/v1/events/[id]/registrations/route";
import { GET as listTransactions } from "@/app/api/v1/contacts/[id]/transactions/route";
import { POST as refund } from "@/app/api/v1/transactions/[id]/refunds/route";
import { GET as listForms } from "@/app/api/v1/forms/route";
import { GET as listSubmissions } from "@/app/api/v1/forms/[id]/submissions/route";
import { GET as listEndpoints, POST as createEndpoint } from "@/app/api/v1/webhook-endpoints/route";
import { DELETE as deleteEndpoint } from "@/app/api/v1/webhook-endpoints/[id]/route";
import { apiKeyFor, callV1, expectDocumented, type TestKey } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";
import { createForm } from "../helpers/forms";

/**
 * docs/api.md, the REST API v1 beyond contacts: every answer here is checked against the
 * OpenAPI document (expectDocumented), and every write against the database.
 */
const db = setupTestDatabase();

beforeAll(() => {
  process.env.APP_URL = "http://crm.test";
  process.env.API_RATE_LIMIT = "100000";
});

const hours = (n: number) => new Date(Date.now() + n * 3_600_000);

async function event(workspaceId: string, fields: Record<string, unknown> = {}) {
  const row = {
    workspace_id: workspaceId,
    name: "Event",
    start_time: hours(24),
    end_time: hours(26),
    timezone: "UTC",
    is_published: true,
    ...fields,
  };
  const [e] = await db.sql`insert into events ${db.sql(row)} returning id`;
  return e.id as string;
}

async function transaction(workspaceId: string, contactId: string, dollars: string, at = hours(-1)) {
  const [row] = await db.sql`
    insert into transactions (workspace_id, contact_id, amount_paid, currency, transaction_date)
    values (${workspaceId}, ${contactId}, ${dollars}, 'usd', ${at}) returning id`;
  return row.id as string;
}

/** Walks a list to its end, checking each page against the document. */
async function walk(
  handler: Parameters<typeof callV1>[0],
  path: string,
  req: { key: string; params?: Record<string, string>; query?: Record<string, string> },
  between?: () => Promise<void>,
): Promise<{ id: string }[]> {
  const seen: { id: string }[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const res = await callV1(handler, "GET", path, {
      ...req,
      query: { ...req.query, ...(cursor ? { cursor } : {}) },
    });
    expect(res.status).toBe(200);
    const page = (await expectDocumented(res, "GET", path)) as {
      data: { id: string }[];
      next_cursor: string | null;
    };
    seen.push(...page.data);
    cursor = page.next_cursor;
    if (!cursor) return seen;
    await between?.();
  }
  throw new Error("the walk did not end");
}

let ws: TestWorkspace;
let other: TestWorkspace;
let all: TestKey;

beforeAll(async () => {
  ws = await createWorkspace(db.sql);
  other = await createWorkspace(db.sql);
  all = await apiKeyFor(db.sql, ws.id, [
    "events:read",
    "transactions:read",
    "transactions:write",
    "forms:read",
    "webhooks:write",
  ]);
});

describe("GET /api/v1/events (spec 4.15 getEvents)", () => {
  test("every event of the key's workspace, unpublished included, walked by cursor while events are added: each once", async () => {
    const w = await createWorkspace(db.sql);
    const key = await apiKeyFor(db.sql, w.id, ["events:read"]);
    const existing = [];
    for (let i = 0; i < 7; i++)
      existing.push(await event(w.id, { name: `E${i}`, is_published: i % 2 === 0 }));
    existing.push(await event(w.id, { name: "No start", start_time: null, end_time: null }));
    await event(other.id, { name: "Foreign" });
    let added = 0;
    const seen = await walk(
      listEvents,
      "/api/v1/events",
      { key: key.key, query: { limit: "3" } },
      async () => {
        await event(w.id, {
          name: `Added ${added++}`,
          start_time: hours(1 + added),
          end_time: hours(2 + added),
        });
      },
    );
    const ids = seen.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of existing) expect(ids).toContain(id);
  });

  test("the getEvents filters in snake_case: published, search, sort_by name descending", async () => {
    const w = await createWorkspace(db.sql);
    const key = await apiKeyFor(db.sql, w.id, ["events:read"]);
    await event(w.id, { name: "Alpha gala", is_published: false });
    await event(w.id, { name: "Beta gala" });
    await event(w.id, { name: "Gamma fair" });
    const res = await callV1(listEvents, "GET", "/api/v1/events", {
      key: key.key,
      query: { search: "gala", sort_by: "name", sort_dir: "desc" },
    });
    const body = (await expectDocumented(res, "GET", "/api/v1/events")) as { data: { name: string }[] };
    expect(body.data.map((e) => e.name)).toEqual(["Beta gala", "Alpha gala"]);
    const unpublished = await callV1(listEvents, "GET", "/api/v1/events", {
      key: key.key,
      query: { published: "false" },
    });
    const u = (await expectDocumented(unpublished, "GET", "/api/v1/events")) as { data: { name: string }[] };
    expect(u.data.map((e) => e.name)).toEqual(["Alpha gala"]);
  });

  test("400 invalid_request for a bad limit, sort or cursor (fields name them)", async () => {
    for (const query of [{ limit: "0" }, { limit: "101" }, { sort_by: "id" }, { cursor: "bm9wZQ" }] as Record<
      string,
      string
    >[]) {
      const res = await callV1(listEvents, "GET", "/api/v1/events", { key: all.key, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      const body = (await expectDocumented(res, "GET", "/api/v1/events")) as { error: { fields: object } };
      expect(Object.keys(body.error.fields)).toEqual([Object.keys(query)[0]]);
    }
  });
});

describe("GET /api/v1/events/{id}/registrations", () => {
  test("the event's registrations; another workspace's event is 404 like a made-up id", async () => {
    const eventId = await event(ws.id);
    const c = await createContact(db.sql, ws.id);
    await db.sql`insert into event_registrations (workspace_id, event_id, contact_id, amount_paid)
                 values (${ws.id}, ${eventId}, ${c.id}, 12.5)`;
    const res = await callV1(listRegistrations, "GET", "/api/v1/events/{id}/registrations", {
      key: all.key,
      params: { id: eventId },
    });
    const body = (await expectDocumented(res, "GET", "/api/v1/events/{id}/registrations")) as {
      data: { contact_id: string; amount_paid: string }[];
    };
    expect(body.data).toMatchObject([{ contact_id: c.id, amount_paid: "12.50" }]);

    const foreign = await event(other.id);
    for (const id of [foreign, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      const r = await callV1(listRegistrations, "GET", "/api/v1/events/{id}/registrations", {
        key: all.key,
        params: { id },
      });
      expect(r.status).toBe(404);
      expect(await expectDocumented(r, "GET", "/api/v1/events/{id}/registrations")).toEqual({
        error: { code: "not_found", message: "Not found." },
      });
    }
  });
});

describe("GET /api/v1/contacts/{id}/transactions (spec 4.15 getContactTransactions)", () => {
  test("the feed newest first in dollars, by cursor; another workspace's contact is 404", async () => {
    const c = await createContact(db.sql, ws.id);
    const older = await transaction(ws.id, c.id, "10.00", hours(-48));
    const newer = await transaction(ws.id, c.id, "25.50", hours(-1));
    const seen = await walk(listTransactions, "/api/v1/contacts/{id}/transactions", {
      key: all.key,
      params: { id: c.id },
      query: { limit: "1" },
    });
    expect(seen.map((t) => t.id)).toEqual([newer, older]);
    expect(seen[0]).toMatchObject({ kind: "transaction", amount: "25.50", remaining: "25.50" });

    const foreign = await createContact(db.sql, other.id);
    const r = await callV1(listTransactions, "GET", "/api/v1/contacts/{id}/transactions", {
      key: all.key,
      params: { id: foreign.id },
    });
    expect(r.status).toBe(404);
    await expectDocumented(r, "GET", "/api/v1/contacts/{id}/transactions");
  });
});

describe("POST /api/v1/transactions/{id}/refunds (spec 4.15 recordTransactionRefund, 3.1)", () => {
  const path = "/api/v1/transactions/{id}/refunds";

  test("a partial then the full refund: amounts stored, status refunded, audited with the key as the actor", async () => {
    const c = await createContact(db.sql, ws.id);
    const id = await transaction(ws.id, c.id, "30.00");
    const first = await callV1(refund, "POST", path, {
      key: all.key,
      params: { id },
      body: { amount: "10.25" },
    });
    expect(first.status).toBe(201);
    expect(await expectDocumented(first, "POST", path)).toMatchObject({
      id,
      status: "succeeded",
      amount_refunded: "10.25",
      amount_remaining: "19.75",
    });
    const second = await callV1(refund, "POST", path, {
      key: all.key,
      params: { id },
      body: { amount: "19.75", run_automations: true },
    });
    expect(second.status).toBe(201);
    const [row] = await db.sql`select status, amount_refunded::text from transactions where id = ${id}`;
    expect(row).toEqual({ status: "refunded", amount_refunded: "30.00" });
    const audit = await db.sql`
      select action, actor_id, actor_api_key_id, actor_api_key_name from audit_log
      where target_id = ${id} order by created_at`;
    expect(audit).toEqual([
      {
        action: "transaction.refund_recorded",
        actor_id: null,
        actor_api_key_id: all.id,
        actor_api_key_name: "Test key",
      },
      {
        action: "transaction.refund_recorded",
        actor_id: null,
        actor_api_key_id: all.id,
        actor_api_key_name: "Test key",
      },
    ]);
    const again = await callV1(refund, "POST", path, {
      key: all.key,
      params: { id },
      body: { amount: "1.00" },
    });
    expect(again.status).toBe(409);
    expect(((await expectDocumented(again, "POST", path)) as { error: { code: string } }).error.code).toBe(
      "conflict",
    );
  });

  test("more than remains, or not dollars: 400 on amount and nothing stored", async () => {
    const c = await createContact(db.sql, ws.id);
    const id = await transaction(ws.id, c.id, "5.00");
    for (const amount of ["5.01", "0", "-1", "1.234", 3, "1e3", ""]) {
      const res = await callV1(refund, "POST", path, { key: all.key, params: { id }, body: { amount } });
      expect(res.status, String(amount)).toBe(400);
      const body = (await expectDocumented(res, "POST", path)) as { error: { fields: object } };
      expect(Object.keys(body.error.fields)).toEqual(["amount"]);
    }
    const [row] = await db.sql`select status, amount_refunded::text from transactions where id = ${id}`;
    expect(row).toEqual({ status: "succeeded", amount_refunded: "0.00" });
    expect(await db.sql`select 1 from audit_log where target_id = ${id}`).toHaveLength(0);
  });

  test("cross-workspace: another workspace's transaction is 404 and stays unrefunded", async () => {
    const c = await createContact(db.sql, other.id);
    const id = await transaction(other.id, c.id, "8.00");
    const res = await callV1(refund, "POST", path, {
      key: all.key,
      params: { id },
      body: { amount: "1.00" },
    });
    expect(res.status).toBe(404);
    await expectDocumented(res, "POST", path);
    const [row] = await db.sql`select amount_refunded::text from transactions where id = ${id}`;
    expect(row.amount_refunded).toBe("0.00");
  });

  test("Idempotency-Key: the same request twice refunds once and answers the same; another body is 409", async () => {
    const c = await createContact(db.sql, ws.id);
    const id = await transaction(ws.id, c.id, "20.00");
    const send = (amount: string) =>
      callV1(refund, "POST", path, {
        key: all.key,
        params: { id },
        body: { amount },
        headers: { "idempotency-key": `refund-${id}` },
      });
    const [a, b] = await Promise.all([send("4.00"), send("4.00")]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(await a.json()).toEqual(await b.json());
    const [row] = await db.sql`select amount_refunded::text from transactions where id = ${id}`;
    expect(row.amount_refunded).toBe("4.00");
    const conflict = await send("5.00");
    expect(conflict.status).toBe(409);
    expect(((await expectDocumented(conflict, "POST", path)) as { error: { code: string } }).error.code).toBe(
      "idempotency_conflict",
    );
  });
});

describe("GET /api/v1/forms and /api/v1/forms/{id}/submissions", () => {
  test("the workspace's forms with counts, and a form's submissions; another workspace's form is 404", async () => {
    const w = await createWorkspace(db.sql);
    const key = await apiKeyFor(db.sql, w.id, ["forms:read"]);
    const form = await createForm(db.sql, w.id);
    const c = await createContact(db.sql, w.id);
    await db.sql`insert into form_submissions (workspace_id, form_id, contact_id, payload, ip_address, submission_type)
                 values (${w.id}, ${form.id}, ${c.id}, ${db.sql.json({ email: c.email })}, '203.0.113.9', 'direct')`;
    await createForm(db.sql, other.id);
    const forms = await walk(listForms, "/api/v1/forms", { key: key.key });
    expect(forms).toMatchObject([{ id: form.id, submissions: 1, has_key: true }]);
    const subs = await walk(listSubmissions, "/api/v1/forms/{id}/submissions", {
      key: key.key,
      params: { id: form.id },
    });
    expect(subs).toMatchObject([
      { contact_id: c.id, ip_address: "203.0.113.9", payload: { email: c.email } },
    ]);
    const foreign = await createForm(db.sql, other.id);
    const r = await callV1(listSubmissions, "GET", "/api/v1/forms/{id}/submissions", {
      key: key.key,
      params: { id: foreign.id },
    });
    expect(r.status).toBe(404);
    await expectDocumented(r, "GET", "/api/v1/forms/{id}/submissions");
  });
});

describe("POST|GET|DELETE /api/v1/webhook-endpoints (REST hooks)", () => {
  test("subscribe (secret once, stored encrypted, audited), list without secrets, unsubscribe", async () => {
    const w = await createWorkspace(db.sql);
    // contact.created carries a contact: the key reads contacts too (docs/api.md, "Scopes and the data they reach")
    const key = await apiKeyFor(db.sql, w.id, ["webhooks:write", "contacts:read"], { name: "Zapier" });
    const res = await callV1(createEndpoint, "POST", "/api/v1/webhook-endpoints", {
      key: key.key,
      body: { url: "https://hooks.example.org/crm?zap=1", event_types: ["contact.created"] },
    });
    expect(res.status).toBe(201);
    const created = (await expectDocumented(res, "POST", "/api/v1/webhook-endpoints")) as {
      id: string;
      secret: string;
    };
    const [row] = await db.sql`select workspace_id, url, event_types, secret_ciphertext from webhook_endpoints
                               where id = ${created.id}`;
    expect(row).toMatchObject({ workspace_id: w.id, event_types: ["contact.created"] });
    expect(row.secret_ciphertext).not.toContain(created.secret);
    const listed = await walk(listEndpoints, "/api/v1/webhook-endpoints", { key: key.key });
    expect(listed.map((e) => e.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    const del = await callV1(deleteEndpoint, "DELETE", "/api/v1/webhook-endpoints/{id}", {
      key: key.key,
      params: { id: created.id },
    });
    expect(del.status).toBe(204);
    await expectDocumented(del, "DELETE", "/api/v1/webhook-endpoints/{id}");
    expect(await db.sql`select 1 from webhook_endpoints where id = ${created.id}`).toHaveLength(0);
    const audit =
      await db.sql`select action, actor_api_key_name from audit_log where target_id = ${created.id}
                               order by created_at`;
    expect(audit).toEqual([
      { action: "webhook_endpoint.created", actor_api_key_name: "Zapier" },
      { action: "webhook_endpoint.deleted", actor_api_key_name: "Zapier" },
    ]);
  });

  test("a private, credentialed or non-http URL, an unknown event type: 400 and nothing stored", async () => {
    const w = await createWorkspace(db.sql);
    const key = await apiKeyFor(db.sql, w.id, ["webhooks:write"]);
    for (const [body, field] of [
      [{ url: "ftp://hooks.example.org/x", event_types: ["contact.created"] }, "url"],
      [{ url: "https://user:pw@hooks.example.org/x", event_types: ["contact.created"] }, "url"],
      [{ url: "https://127.0.0.1/x", event_types: ["contact.created"] }, "url"],
      [{ url: "https://169.254.169.254/latest", event_types: ["contact.created"] }, "url"],
      [{ url: "https://hooks.example.org/x", event_types: ["contact.exploded"] }, "event_types.0"],
      [{ url: "https://hooks.example.org/x", event_types: [] }, "event_types"],
    ] as const) {
      const res = await callV1(createEndpoint, "POST", "/api/v1/webhook-endpoints", { key: key.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const answer = (await expectDocumented(res, "POST", "/api/v1/webhook-endpoints")) as {
        error: { fields: object };
      };
      expect(Object.keys(answer.error.fields)).toEqual([field]);
    }
    expect(await db.sql`select 1 from webhook_endpoints where workspace_id = ${w.id}`).toHaveLength(0);
  });

  test("cross-workspace: another workspace's endpoint cannot be deleted (404) and stays", async () => {
    const [foreign] = await db.sql`
      insert into webhook_endpoints (workspace_id, url, event_types, secret_ciphertext)
      values (${other.id}, 'https://hooks.example.org/other', '{contact.created}', 'x') returning id`;
    const res = await callV1(deleteEndpoint, "DELETE", "/api/v1/webhook-endpoints/{id}", {
      key: all.key,
      params: { id: foreign.id },
    });
    expect(res.status).toBe(404);
    await expectDocumented(res, "DELETE", "/api/v1/webhook-endpoints/{id}");
    expect(await db.sql`select 1 from webhook_endpoints where id = ${foreign.id}`).toHaveLength(1);
  });
});
