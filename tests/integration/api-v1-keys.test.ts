import { afterEach, describe, expect, test } from "vitest";
import * as contacts from "@/app/api/v1/contacts/route";
import * as one from "@/app/api/v1/contacts/[id]/route";
import * as subscribe from "@/app/api/v1/contacts/[id]/subscribe/route";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";
import { apiKey, call } from "../helpers/api-v1";
import { hashApiKey } from "@/lib/api-keys/hash-api-key";
import * as publicEvents from "@/app/api/v1/public/events/route";
import * as notes from "@/app/api/v1/contacts/[id]/notes/route";

const db = setupTestDatabase();

afterEach(() => {
  delete process.env.API_RATE_LIMIT;
});

const count = async (workspaceId: string) =>
  (await db.sql`select count(*)::int as n from contacts where workspace_id = ${workspaceId}`)[0].n as number;

describe("docs/api.md: keys and scopes", () => {
  test("401 unauthorized without a key, with an unknown key, a revoked key and an expired key; nothing is stored", async () => {
    const ws = await createWorkspace(db.sql);
    const revoked = await apiKey(db.sql, ws.id, ["contacts:write"], { revoked_at: new Date() });
    const expired = await apiKey(db.sql, ws.id, ["contacts:write"], {
      expires_at: new Date(Date.now() - 1000),
    });
    for (const key of [null, "evk_made_up", revoked.raw, expired.raw]) {
      const res = await call(contacts.POST, { method: "POST", key, body: { email: "x@example.test" } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
    const basic = await call(contacts.GET, { headers: { authorization: "Basic dXNlcjpwYXNz" } });
    expect(basic.status).toBe(401);
    expect(await count(ws.id)).toBe(0);
    const [used] = await db.sql`select last_used_at from api_keys where id = ${revoked.id}`;
    expect(used.last_used_at).toBeNull();
  });

  test("a key whose expiry is in the future works", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await apiKey(db.sql, ws.id, ["contacts:read"], { expires_at: new Date(Date.now() + 60_000) });
    expect((await call(contacts.GET, { key: key.raw })).status).toBe(200);
  });

  test("403 forbidden when the key lacks the scope, and nothing is stored", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const reader = await apiKey(db.sql, ws.id, ["contacts:read"]);
    const events = await apiKey(db.sql, ws.id, ["events:read"]);
    const writer = await apiKey(db.sql, ws.id, ["contacts:write"]);
    const create = await call(contacts.POST, {
      method: "POST",
      key: reader.raw,
      body: { email: "x@example.test" },
    });
    expect(create.status).toBe(403);
    expect(create.body.error.code).toBe("forbidden");
    expect((await call(contacts.GET, { key: events.raw })).status).toBe(403);
    expect((await call(one.GET, { key: writer.raw, params: { id: c.id } })).status).toBe(403);
    // consent needs consent:write, which contacts:write does not include
    const sub = await call(subscribe.POST, {
      method: "POST",
      key: writer.raw,
      params: { id: c.id },
      body: { proof: { source: "x", ip: "203.0.113.1" } },
    });
    expect(sub.status).toBe(403);
    expect(await count(ws.id)).toBe(1);
    const [row] = await db.sql`select is_subscribed from contacts where id = ${c.id}`;
    expect(row.is_subscribed).toBe(false);
  });

  test("keys made before scopes existed get {events:read}; an unknown scope is refused by the database", async () => {
    const ws = await createWorkspace(db.sql);
    const [k] = await db.sql`
      insert into api_keys (workspace_id, name, key_hash) values (${ws.id}, 'Old', ${hashApiKey("old-key")}) returning scopes`;
    expect(k.scopes).toEqual(["events:read"]);
    await expect(
      db.sql`insert into api_keys (workspace_id, name, key_hash, scopes)
             values (${ws.id}, 'Bad', ${hashApiKey("bad-key")}, '{contacts:admin}')`,
    ).rejects.toThrow(/api_keys_scopes_check/);
  });

  test("the public events list (spec 4.14) needs events:read: a key without it is 403, an expired key 401", async () => {
    const ws = await createWorkspace(db.sql);
    const reader = await apiKey(db.sql, ws.id, ["events:read"]);
    const contactsOnly = await apiKey(db.sql, ws.id, ["contacts:read"]);
    const expired = await apiKey(db.sql, ws.id, ["events:read"], { expires_at: new Date(Date.now() - 1000) });
    const get = (key: string) =>
      publicEvents.GET(
        new Request("http://crm.test/api/v1/public/events", { headers: { authorization: `Bearer ${key}` } }),
      );
    expect((await get(reader.raw)).status).toBe(200);
    expect((await get(contactsOnly.raw)).status).toBe(403);
    expect((await get(expired.raw)).status).toBe(401);
  });

  test("last_used_at and last_used_ip are recorded, at most once a minute from the same address", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await apiKey(db.sql, ws.id, ["contacts:read"]);
    await call(contacts.GET, { key: key.raw, headers: { "x-forwarded-for": "198.51.100.4" } });
    const [first] = await db.sql`select last_used_at, last_used_ip from api_keys where id = ${key.id}`;
    expect(first.last_used_ip).toBe("198.51.100.4");
    expect(first.last_used_at).toBeInstanceOf(Date);
    await call(contacts.GET, { key: key.raw, headers: { "x-forwarded-for": "198.51.100.4" } });
    const [second] = await db.sql`select last_used_at from api_keys where id = ${key.id}`;
    expect(second.last_used_at.getTime()).toBe(first.last_used_at.getTime());
    await call(contacts.GET, { key: key.raw, headers: { "x-forwarded-for": "198.51.100.5" } });
    const [third] = await db.sql`select last_used_ip from api_keys where id = ${key.id}`;
    expect(third.last_used_ip).toBe("198.51.100.5");
  });

  test("rate limit per key: RateLimit-* headers on every answer; past the limit 429 rate_limited with Retry-After, nothing stored; other keys unaffected", async () => {
    process.env.API_RATE_LIMIT = "3";
    const ws = await createWorkspace(db.sql);
    const key = await apiKey(db.sql, ws.id, ["contacts:read", "contacts:write"]);
    const other = await apiKey(db.sql, ws.id, ["contacts:read"]);
    // the window is fixed (a minute by default): the four requests must fall in one, not across its end
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await new Promise((r) => setTimeout(r, left + 100));
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await call(contacts.GET, { key: key.raw }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0"]);
    expect(answers[0].headers.get("ratelimit-limit")).toBe("3");
    expect(Number(answers[0].headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    const refused = await call(contacts.POST, {
      method: "POST",
      key: key.raw,
      body: { email: "r@example.test" },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await count(ws.id)).toBe(0);
    expect((await call(contacts.GET, { key: other.raw })).status).toBe(200);
  });
});

describe("docs/api.md: Idempotency-Key", () => {
  const post = (key: string, idem: string, body: unknown) =>
    call(contacts.POST, { method: "POST", key, body, headers: { "idempotency-key": idem } });

  test("a repeat with the same body returns the first answer (status and body) and changes nothing more", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await apiKey(db.sql, ws.id, ["contacts:write"]);
    const first = await post(key.raw, "k-1", { email: "idem@example.test" });
    expect(first.status).toBe(201);
    await db.sql`update contacts set first_name = 'Changed since' where id = ${first.body.id}`;
    const again = await post(key.raw, "k-1", { email: "idem@example.test" });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await count(ws.id)).toBe(1);
    expect(await db.sql`select 1 from audit_log where workspace_id = ${ws.id}`).toHaveLength(1);
  });

  test("the same key with a different body is 409 idempotency_conflict, nothing stored", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await apiKey(db.sql, ws.id, ["contacts:write"]);
    expect((await post(key.raw, "k-2", { email: "one@example.test" })).status).toBe(201);
    const other = await post(key.raw, "k-2", { email: "two@example.test" });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("idempotency_conflict");
    expect(await count(ws.id)).toBe(1);
  });

  test("concurrent duplicates: two identical requests at the same moment create one contact", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await apiKey(db.sql, ws.id, ["contacts:write"]);
    const [a, b] = await Promise.all([
      post(key.raw, "k-3", { email: "race@example.test" }),
      post(key.raw, "k-3", { email: "race@example.test" }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body).toEqual(b.body);
    expect(await count(ws.id)).toBe(1);
    expect(await db.sql`select 1 from audit_log where workspace_id = ${ws.id}`).toHaveLength(1);
  });

  test("concurrent duplicates of a note: exactly one note", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await apiKey(db.sql, ws.id, ["contacts:write"]);
    const c = await createContact(db.sql, ws.id);
    const once = () =>
      call(notes.POST, {
        method: "POST",
        key: key.raw,
        params: { id: c.id },
        body: { text: "Only once" },
        headers: { "idempotency-key": "note-1" },
      });
    const answers = await Promise.all([once(), once(), once()]);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await db.sql`select 1 from notes where contact_id = ${c.id}`).toHaveLength(1);
  });

  test("keys are per API key, and an answer older than 24 hours is not replayed", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await apiKey(db.sql, ws.id, ["contacts:write"]);
    const second = await apiKey(db.sql, ws.id, ["contacts:write"]);
    expect((await post(key.raw, "k-4", { email: "a4@example.test" })).status).toBe(201);
    // the same Idempotency-Key under another API key is another request: the email is taken
    expect((await post(second.raw, "k-4", { email: "a4@example.test" })).status).toBe(409);
    await db.sql`update api_idempotency_keys set created_at = now() - interval '25 hours' where api_key_id = ${key.id}`;
    const late = await post(key.raw, "k-4", { email: "a4@example.test" });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("contact_exists");
  });

  test("a refused first attempt is not kept: the retry runs", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await apiKey(db.sql, ws.id, ["contacts:write"]);
    expect((await post(key.raw, "k-5", { email: "bad" })).status).toBe(400);
    expect(await db.sql`select 1 from api_idempotency_keys where api_key_id = ${key.id}`).toHaveLength(0);
  });
});

describe("docs/api.md: cursor lists", () => {
  async function walk(key: string, query: string, during?: (page: number) => Promise<void>) {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 100; page++) {
      const path: string = `/api/v1/contacts?limit=7${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await call(contacts.GET, { key, path });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      await during?.(page);
      cursor = res.body.next_cursor;
      if (!cursor) break;
    }
    return seen;
  }

  test("a walk while rows are added returns every row that existed at the start exactly once, in every order", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await apiKey(db.sql, ws.id, ["contacts:read"]);
    const names = [null, "Ann", "ann", "Bob", null, "Zoe", "Émile", "bob"];
    const existing: string[] = [];
    for (let i = 0; i < 40; i++) {
      const c = await createContact(db.sql, ws.id, {
        first_name: names[i % names.length],
        last_name: i % 3 === 0 ? null : `L${i % 5}`,
        source: ["form", "import", "payproc"][i % 3],
        // ties on created_at: the id decides
        created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 6)),
      });
      existing.push(c.id);
    }
    for (const query of [
      "",
      "&sort_dir=asc",
      "&sort_by=name",
      "&sort_by=name&sort_dir=desc",
      "&sort_by=source",
      "&sort_by=source&sort_dir=asc",
    ]) {
      let added = 0;
      const seen = await walk(key.raw, query, async () => {
        await createContact(db.sql, ws.id, { first_name: ["Ann", null, "Zed"][added % 3], source: "form" });
        added++;
      });
      const fromStart = seen.filter((id) => existing.includes(id));
      expect(new Set(seen).size, query).toBe(seen.length);
      expect(new Set(fromStart).size, query).toBe(existing.length);
      await db.sql`delete from contacts where workspace_id = ${ws.id} and not (id = any(${existing}::uuid[]))`;
    }
  });

  test("the filters of 4.15 in snake_case: tag_ids with tag_mode, exclude_tag_ids, source, search", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await apiKey(db.sql, ws.id, ["contacts:read"]);
    const [t1] = await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'one') returning id`;
    const [t2] = await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'two') returning id`;
    const both = await createContact(db.sql, ws.id, { first_name: "Both", source: "form" });
    const onlyOne = await createContact(db.sql, ws.id, { first_name: "Only", source: "import" });
    await createContact(db.sql, ws.id, { first_name: "None", source: "form" });
    await db.sql`insert into contact_tags (workspace_id, contact_id, tag_id) values
      (${ws.id}, ${both.id}, ${t1.id}), (${ws.id}, ${both.id}, ${t2.id}), (${ws.id}, ${onlyOne.id}, ${t1.id})`;
    const ids = async (q: string) =>
      (await call(contacts.GET, { key: key.raw, path: `/api/v1/contacts?${q}` })).body.data
        .map((c: { id: string }) => c.id)
        .sort();
    expect(await ids(`tag_ids=${t1.id},${t2.id}&tag_mode=all`)).toEqual([both.id]);
    expect(await ids(`tag_ids=${t1.id}&tag_ids=${t2.id}`)).toEqual([both.id, onlyOne.id].sort());
    expect(await ids(`tag_ids=${t1.id}&exclude_tag_ids=${t2.id}`)).toEqual([onlyOne.id]);
    expect(await ids(`source=import`)).toEqual([onlyOne.id]);
    expect(await ids(`search=only`)).toEqual([onlyOne.id]);
    const bad = await call(contacts.GET, { key: key.raw, path: `/api/v1/contacts?tag_ids=nope` });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toHaveProperty("tag_ids.0");
  });

  test("limit 1 to 100 (default 25); a foreign or altered cursor is 400 invalid_request", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await apiKey(db.sql, ws.id, ["contacts:read"]);
    for (let i = 0; i < 30; i++) await createContact(db.sql, ws.id);
    const first = await call(contacts.GET, { key: key.raw });
    expect(first.body.data).toHaveLength(25);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    for (const q of [
      "limit=0",
      "limit=101",
      "limit=abc",
      "cursor=xyz",
      `sort_by=name&cursor=${first.body.next_cursor}`,
    ]) {
      const res = await call(contacts.GET, { key: key.raw, path: `/api/v1/contacts?${q}` });
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    const last = await call(contacts.GET, {
      key: key.raw,
      path: `/api/v1/contacts?limit=100&cursor=${first.body.next_cursor}`,
    });
    expect(last.body.data).toHaveLength(5);
    expect(last.body.next_cursor).toBeNull();
  });
});
