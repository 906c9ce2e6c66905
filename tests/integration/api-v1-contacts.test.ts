import { describe, expect, test } from "vitest";
import * as contacts from "@/app/api/v1/contacts/route";
import * as one from "@/app/api/v1/contacts/[id]/route";
import * as upsert from "@/app/api/v1/contacts/upsert/route";
import * as batch from "@/app/api/v1/contacts/batch/route";
import * as tags from "@/app/api/v1/contacts/[id]/tags/route";
import * as untag from "@/app/api/v1/contacts/[id]/tags/[tag_id]/route";
import * as notes from "@/app/api/v1/contacts/[id]/notes/route";
import * as subscribe from "@/app/api/v1/contacts/[id]/subscribe/route";
import * as unsubscribe from "@/app/api/v1/contacts/[id]/unsubscribe/route";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";
import { apiKey, call } from "../helpers/api-v1";

const db = setupTestDatabase();

const ALL = ["contacts:read", "contacts:write", "consent:write"] as const;

const count = async (workspaceId: string) =>
  (await db.sql`select count(*)::int as n from contacts where workspace_id = ${workspaceId}`)[0].n as number;

async function tenant() {
  const ws = await createWorkspace(db.sql);
  const key = await apiKey(db.sql, ws.id, [...ALL]);
  return { ws, key };
}

describe("docs/api.md: contacts through the v1 API", () => {
  test("create: 201 with the contact, source 'api', audited with the key (id and name) as the actor", async () => {
    const { ws, key } = await tenant();
    const res = await call(contacts.POST, {
      method: "POST",
      key: key.raw,
      body: { email: "Ada@Example.test", first_name: "Ada" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: "ada@example.test", first_name: "Ada", source: "api" });
    const [row] = await db.sql`select source, workspace_id from contacts where id = ${res.body.id}`;
    expect(row).toEqual({ source: "api", workspace_id: ws.id });
    const audit = await db.sql`
      select actor_id, actor_api_key_id, actor_api_key_name, action, target_id from audit_log
      where workspace_id = ${ws.id}`;
    expect(audit).toEqual([
      {
        actor_id: null,
        actor_api_key_id: key.id,
        actor_api_key_name: key.name,
        action: "contact.created",
        target_id: res.body.id,
      },
    ]);
  });

  test("create: a duplicate email is 409 contact_exists and nothing is stored", async () => {
    const { ws, key } = await tenant();
    await createContact(db.sql, ws.id, { email: "dup@example.test", first_name: "Kept" });
    const res = await call(contacts.POST, {
      method: "POST",
      key: key.raw,
      body: { email: "dup@example.test" },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("contact_exists");
    const rows = await db.sql`select first_name from contacts where workspace_id = ${ws.id}`;
    expect(rows).toEqual([{ first_name: "Kept" }]);
    expect(await db.sql`select 1 from audit_log where workspace_id = ${ws.id}`).toHaveLength(0);
  });

  test("invalid input: 400 invalid_request with fields, nothing stored", async () => {
    const { ws, key } = await tenant();
    const res = await call(contacts.POST, {
      method: "POST",
      key: key.raw,
      body: { email: "not-an-email", birth_month: 13, nickname: "x" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(Object.keys(res.body.error.fields)).toEqual(expect.arrayContaining(["email", "birth_month"]));
    const bad = await call(contacts.POST, { method: "POST", key: key.raw, body: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_request", fields: { body: expect.any(String) } });
    // hostile text: a NUL character no Postgres text can hold is a 400, not a failed statement
    const nul = await call(contacts.POST, {
      method: "POST",
      key: key.raw,
      body: { email: "n@example.test", city: "a\u0000b" },
    });
    expect(nul.status).toBe(400);
    expect(nul.body.error.fields).toHaveProperty("city");
    const query = await call(contacts.GET, { key: key.raw, path: "/api/v1/contacts?search=%00x" });
    expect(query.status).toBe(400);
    const wrongType = await call(contacts.POST, {
      method: "POST",
      key: key.raw,
      body: "email=x",
      headers: { "content-type": "text/plain" },
    });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.code).toBe("unsupported");
    expect(await db.sql`select 1 from contacts where workspace_id = ${ws.id}`).toHaveLength(0);
  });

  test("cross-workspace ids: another workspace's contact is 404 not_found like a made-up or malformed id, and is not changed", async () => {
    const { key } = await tenant();
    const other = await createWorkspace(db.sql);
    const theirs = await createContact(db.sql, other.id, { first_name: "Theirs" });
    for (const id of [theirs.id, "7c9e6679-7425-40de-944b-e07fc1f90ae7", "not-a-uuid", "1 or 1=1"]) {
      const get = await call(one.GET, { key: key.raw, params: { id } });
      expect(get.status).toBe(404);
      expect(get.body).toEqual({ error: { code: "not_found", message: expect.any(String) } });
      const patch = await call(one.PATCH, {
        method: "PATCH",
        key: key.raw,
        params: { id },
        body: { first_name: "X" },
      });
      expect(patch.status).toBe(404);
      expect((await call(one.DELETE, { method: "DELETE", key: key.raw, params: { id } })).status).toBe(404);
      expect(
        (await call(notes.POST, { method: "POST", key: key.raw, params: { id }, body: { text: "hi" } }))
          .status,
      ).toBe(404);
      expect(
        (await call(tags.POST, { method: "POST", key: key.raw, params: { id }, body: { names: ["vip"] } }))
          .status,
      ).toBe(404);
      expect(
        (
          await call(subscribe.POST, {
            method: "POST",
            key: key.raw,
            params: { id },
            body: { proof: { source: "x", ip: "203.0.113.9" } },
          })
        ).status,
      ).toBe(404);
      expect((await call(unsubscribe.POST, { method: "POST", key: key.raw, params: { id } })).status).toBe(
        404,
      );
    }
    const [row] = await db.sql`select first_name, is_subscribed from contacts where id = ${theirs.id}`;
    expect(row).toEqual({ first_name: "Theirs", is_subscribed: false });
    expect(await db.sql`select 1 from notes where workspace_id = ${other.id}`).toHaveLength(0);
    expect(await db.sql`select 1 from tags where workspace_id = ${other.id}`).toHaveLength(0);
  });

  test("PATCH: spec 4.10 diff-and-audit: changed fields written, an overwritten value gets the system note naming the key; the source is kept", async () => {
    const { ws, key } = await tenant();
    const c = await createContact(db.sql, ws.id, {
      first_name: "Ann",
      phone: "(202) 555-0143",
      source: "form",
    });
    const res = await call(one.PATCH, {
      method: "PATCH",
      key: key.raw,
      params: { id: c.id },
      body: { first_name: "Anne", phone: "2025550143", city: "Boston", last_name: "" },
    });
    expect(res.status).toBe(200);
    const [row] = await db.sql`select first_name, phone, city, source from contacts where id = ${c.id}`;
    // the phone is the same number (4.10 step 1) and stays as stored; an empty value clears nothing
    expect(row).toEqual({ first_name: "Anne", phone: "(202) 555-0143", city: "Boston", source: "form" });
    const noteRows = await db.sql`select content_text, created_by from notes where contact_id = ${c.id}`;
    expect(noteRows).toHaveLength(1);
    expect(noteRows[0].created_by).toBeNull();
    expect(noteRows[0].content_text).toContain(`API key "${key.name}"`);
    expect(noteRows[0].content_text).toContain('First name: "Ann" → "Anne"');
    const [audit] =
      await db.sql`select action, actor_api_key_id, after from audit_log where workspace_id = ${ws.id}`;
    expect(audit).toMatchObject({ action: "contact.updated", actor_api_key_id: key.id });
  });

  test("PATCH: a source in the body is refused (unknown field) and the source protection of 4.15 holds", async () => {
    const { ws, key } = await tenant();
    const c = await createContact(db.sql, ws.id, { source: "payproc" });
    const res = await call(one.PATCH, {
      method: "PATCH",
      key: key.raw,
      params: { id: c.id },
      body: { source: "api" },
    });
    expect(res.status).toBe(400);
    const [row] = await db.sql`select source from contacts where id = ${c.id}`;
    expect(row.source).toBe("payproc");
  });

  test("PATCH: an email taken in the workspace is 409 contact_exists, nothing changes", async () => {
    const { ws, key } = await tenant();
    await createContact(db.sql, ws.id, { email: "taken@example.test" });
    const c = await createContact(db.sql, ws.id, { email: "mine@example.test", first_name: "Me" });
    const res = await call(one.PATCH, {
      method: "PATCH",
      key: key.raw,
      params: { id: c.id },
      body: { email: "taken@example.test", first_name: "Changed" },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("contact_exists");
    const [row] = await db.sql`select email, first_name from contacts where id = ${c.id}`;
    expect(row).toEqual({ email: "mine@example.test", first_name: "Me" });
  });

  test("upsert: 201 creates (source 'api'); 200 merges by 4.10 and keeps the existing source", async () => {
    const { ws, key } = await tenant();
    const first = await call(upsert.POST, {
      method: "POST",
      key: key.raw,
      path: "/api/v1/contacts/upsert",
      body: { email: "new@example.test", first_name: "New" },
    });
    expect(first.status).toBe(201);
    expect(first.body.source).toBe("api");
    const existing = await createContact(db.sql, ws.id, {
      email: "kept@example.test",
      first_name: "Old",
      source: "ticketing",
    });
    const merged = await call(upsert.POST, {
      method: "POST",
      key: key.raw,
      path: "/api/v1/contacts/upsert",
      body: { email: "KEPT@example.test", first_name: "Fresh", city: "Paris" },
    });
    expect(merged.status).toBe(200);
    expect(merged.body.id).toBe(existing.id);
    const [row] = await db.sql`select first_name, city, source from contacts where id = ${existing.id}`;
    expect(row).toEqual({ first_name: "Fresh", city: "Paris", source: "ticketing" });
    const noteRows = await db.sql`select content_text from notes where contact_id = ${existing.id}`;
    expect(noteRows).toHaveLength(1);
    expect(noteRows[0].content_text).toContain('"Old" → "Fresh"');
  });

  test("tags: names attach (missing tags created, matched case-insensitively); DELETE detaches; another workspace's tag is 404", async () => {
    const { ws, key } = await tenant();
    const c = await createContact(db.sql, ws.id);
    await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'VIP')`;
    const res = await call(tags.POST, {
      method: "POST",
      key: key.raw,
      params: { id: c.id },
      body: { names: ["vip", "Donor"] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: { name: string }) => t.name).sort()).toEqual(["Donor", "VIP"]);
    expect(await db.sql`select name from tags where workspace_id = ${ws.id} order by name`).toEqual([
      { name: "Donor" },
      { name: "VIP" },
    ]);
    const other = await createWorkspace(db.sql);
    const [foreign] =
      await db.sql`insert into tags (workspace_id, name) values (${other.id}, 'X') returning id`;
    const refused = await call(untag.DELETE, {
      method: "DELETE",
      key: key.raw,
      params: { id: c.id, tag_id: foreign.id },
    });
    expect(refused.status).toBe(404);
    const vip = res.body.data.find((t: { name: string }) => t.name === "VIP");
    const gone = await call(untag.DELETE, {
      method: "DELETE",
      key: key.raw,
      params: { id: c.id, tag_id: vip.id },
    });
    expect(gone.status).toBe(204);
    expect(await db.sql`select tag_id from contact_tags where contact_id = ${c.id}`).toHaveLength(1);
    const actions = await db.sql`select action from audit_log where workspace_id = ${ws.id} order by id`;
    expect(actions.map((a) => a.action)).toEqual(["contact.tagged", "contact.tagged", "contact.untagged"]);
  });

  test("notes: 201, stored on the contact's timeline as a note without a member author", async () => {
    const { ws, key } = await tenant();
    const c = await createContact(db.sql, ws.id);
    const res = await call(notes.POST, {
      method: "POST",
      key: key.raw,
      params: { id: c.id },
      body: { text: "Called <b>back</b>" },
    });
    expect(res.status).toBe(201);
    const [row] =
      await db.sql`select content, content_text, created_by, type from notes where id = ${res.body.id}`;
    expect(row).toEqual({
      content: "<p>Called &lt;b&gt;back&lt;/b&gt;</p>",
      content_text: "Called <b>back</b>",
      created_by: null,
      type: "contact",
    });
  });

  test("subscribe with proof: opt_in_source 'API: <source>', opt_in_ip the proof's; the ledger names the key", async () => {
    const { ws, key } = await tenant();
    const c = await createContact(db.sql, ws.id, { unsubscribed_at: new Date() });
    await db.sql`insert into contact_suppressions (workspace_id, contact_id, reason) values (${ws.id}, ${c.id}, 'unsubscribe')`;
    const res = await call(subscribe.POST, {
      method: "POST",
      key: key.raw,
      params: { id: c.id },
      body: { proof: { source: "Checkout page", ip: "203.0.113.7" } },
    });
    expect(res.status).toBe(200);
    const [row] = await db.sql`
      select is_subscribed, opt_in_source, host(opt_in_ip) as ip, unsubscribed_at, opt_in_timestamp is not null as stamped
      from contacts where id = ${c.id}`;
    expect(row).toEqual({
      is_subscribed: true,
      opt_in_source: "API: Checkout page",
      ip: "203.0.113.7",
      unsubscribed_at: null,
      stamped: true,
    });
    expect(await db.sql`select reason from contact_suppressions where contact_id = ${c.id}`).toEqual([]);
    const ledger = await db.sql`
      select action, flow, source, host(ip) as ip, actor_user_id, actor_api_key_id from consent_events where contact_id = ${c.id}`;
    expect(ledger).toEqual([
      {
        action: "subscribed",
        flow: "api_subscribe",
        source: "API: Checkout page",
        ip: "203.0.113.7",
        actor_user_id: null,
        actor_api_key_id: key.id,
      },
    ]);
  });

  test("subscribe: an active bounce or complaint suppression is 409 suppressed and nothing changes", async () => {
    const { ws, key } = await tenant();
    for (const reason of ["bounce", "complaint"]) {
      const c = await createContact(db.sql, ws.id);
      await db.sql`insert into contact_suppressions (workspace_id, contact_id, reason) values (${ws.id}, ${c.id}, ${reason})`;
      const res = await call(subscribe.POST, {
        method: "POST",
        key: key.raw,
        params: { id: c.id },
        body: { proof: { source: "x", ip: "2001:db8::1" } },
      });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("suppressed");
      const [row] = await db.sql`select is_subscribed, opt_in_source from contacts where id = ${c.id}`;
      expect(row).toEqual({ is_subscribed: false, opt_in_source: null });
      expect(await db.sql`select 1 from consent_events where contact_id = ${c.id}`).toHaveLength(0);
      expect(await db.sql`select reason from contact_suppressions where contact_id = ${c.id}`).toEqual([
        { reason },
      ]);
    }
    expect(await db.sql`select 1 from audit_log where workspace_id = ${ws.id}`).toHaveLength(0);
  });

  test("unsubscribe as spec 4.7: is_subscribed false, unsubscribed_at set, an 'unsubscribe' suppression, the ledger names the key", async () => {
    const { ws, key } = await tenant();
    const c = await createContact(db.sql, ws.id, { is_subscribed: true, opt_in_timestamp: new Date() });
    const res = await call(unsubscribe.POST, { method: "POST", key: key.raw, params: { id: c.id } });
    expect(res.status).toBe(200);
    expect(res.body.email_status).toBe("Unsubscribed");
    const [row] =
      await db.sql`select is_subscribed, unsubscribed_at is not null as unsubscribed from contacts where id = ${c.id}`;
    expect(row).toEqual({ is_subscribed: false, unsubscribed: true });
    expect(await db.sql`select reason from contact_suppressions where contact_id = ${c.id}`).toEqual([
      { reason: "unsubscribe" },
    ]);
    const ledger = await db.sql`select flow, actor_api_key_id from consent_events where contact_id = ${c.id}`;
    expect(ledger).toEqual([{ flow: "api_unsubscribe", actor_api_key_id: key.id }]);
  });

  test("delete: 204 and the row is gone; audited", async () => {
    const { ws, key } = await tenant();
    const c = await createContact(db.sql, ws.id);
    const res = await call(one.DELETE, { method: "DELETE", key: key.raw, params: { id: c.id } });
    expect(res.status).toBe(204);
    expect(await db.sql`select 1 from contacts where id = ${c.id}`).toHaveLength(0);
    const [audit] =
      await db.sql`select action, target_id, actor_api_key_name from audit_log where workspace_id = ${ws.id}`;
    expect(audit).toEqual({ action: "contact.deleted", target_id: c.id, actor_api_key_name: key.name });
  });
});

describe("docs/api.md: batch upsert", () => {
  test("one result per item in order, atomic per item: an invalid or conflicting item changes nothing, the others are stored", async () => {
    const { ws, key } = await tenant();
    await createContact(db.sql, ws.id, { email: "old@example.test", first_name: "Old", source: "form" });
    const res = await call(batch.POST, {
      method: "POST",
      key: key.raw,
      path: "/api/v1/contacts/batch",
      body: {
        contacts: [
          { email: "a@example.test", first_name: "A" },
          { email: "bad", first_name: "B" },
          { email: "old@example.test", first_name: "Newer" },
          { email: "c@example.test", birth_month: 2 },
          { email: "d@example.test", last_name: "D" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { index: number; status: number }) => [r.index, r.status])).toEqual([
      [0, 201],
      [1, 400],
      [2, 200],
      [3, 400],
      [4, 201],
    ]);
    expect(res.body.data[1].error).toMatchObject({
      code: "invalid_request",
      fields: { email: expect.any(String) },
    });
    const rows =
      await db.sql`select email, first_name, source from contacts where workspace_id = ${ws.id} order by email`;
    expect(rows).toEqual([
      { email: "a@example.test", first_name: "A", source: "api" },
      { email: "d@example.test", first_name: null, source: "api" },
      { email: "old@example.test", first_name: "Newer", source: "form" },
    ]);
  });

  test("a database refusal inside one item rolls back that item alone (savepoint)", async () => {
    const { ws, key } = await tenant();
    // a trigger that refuses one address stands in for any failure inside an item's writes
    await db.sql.unsafe(`
      create or replace function public.test_refuse_boom() returns trigger language plpgsql as $$
      begin if new.email = 'boom@example.test' then raise exception 'boom'; end if; return new; end $$;
      create trigger test_refuse_boom before insert on public.contacts for each row execute function public.test_refuse_boom();`);
    try {
      const res = await call(batch.POST, {
        method: "POST",
        key: key.raw,
        path: "/api/v1/contacts/batch",
        body: {
          contacts: [
            { email: "ok1@example.test" },
            { email: "boom@example.test" },
            { email: "ok2@example.test" },
          ],
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.map((r: { status: number }) => r.status)).toEqual([201, 500, 201]);
      const rows = await db.sql`select email from contacts where workspace_id = ${ws.id} order by email`;
      expect(rows.map((r) => r.email)).toEqual(["ok1@example.test", "ok2@example.test"]);
      const audit = await db.sql`select target_id from audit_log where workspace_id = ${ws.id}`;
      expect(audit).toHaveLength(2);
    } finally {
      await db.sql.unsafe(
        `drop trigger test_refuse_boom on public.contacts; drop function public.test_refuse_boom();`,
      );
    }
  });

  test("the same email twice in one batch: created, then merged into it (spec 4.10); 250 items across chunks, all audited", async () => {
    const { ws, key } = await tenant();
    const items = Array.from({ length: 250 }, (_, i) => ({ email: `b${i}@example.test`, first_name: "One" }));
    items[120] = { email: "b3@example.test", first_name: "Two" };
    const res = await call(batch.POST, {
      method: "POST",
      key: key.raw,
      path: "/api/v1/contacts/batch",
      body: { contacts: items },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(250);
    expect(res.body.data[3]).toMatchObject({ index: 3, status: 201 });
    expect(res.body.data[120]).toMatchObject({ index: 120, status: 200, id: res.body.data[3].id });
    const [row] = await db.sql`select first_name from contacts where id = ${res.body.data[3].id}`;
    expect(row.first_name).toBe("Two");
    expect(await count(ws.id)).toBe(249);
    const audit =
      await db.sql`select action, count(*)::int as n from audit_log where workspace_id = ${ws.id} group by 1 order by 1`;
    expect(audit).toEqual([
      { action: "contact.created", n: 249 },
      { action: "contact.updated", n: 1 },
    ]);
  });

  test("more than 1,000 items is 400 and nothing is stored", async () => {
    const { ws, key } = await tenant();
    const many = Array.from({ length: 1001 }, (_, i) => ({ email: `m${i}@example.test` }));
    const res = await call(batch.POST, {
      method: "POST",
      key: key.raw,
      path: "/api/v1/contacts/batch",
      body: { contacts: many },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toHaveProperty("contacts");
    expect(await db.sql`select 1 from contacts where workspace_id = ${ws.id}`).toHaveLength(0);
  });
});

describe("docs/api.md: the key as the actor where members read it", () => {
  test("the audit log list and CSV, and the consent ledger, name the key", async () => {
    const { ws, key } = await tenant();
    const c = await createContact(db.sql, ws.id);
    await call(unsubscribe.POST, { method: "POST", key: key.raw, params: { id: c.id } });
    const { listAuditLog } = await import("@/lib/audit/list-audit-log");
    const { auditLogCsv } = await import("@/lib/audit/audit-log-csv");
    const { getConsentLedger } = await import("@/lib/consent/consent-ledger");
    const { withUser } = await import("@/lib/db/doors");
    const { rows } = await withUser(ws.owner.claims, (tx) => listAuditLog(tx, { workspaceId: ws.id }));
    expect(rows).toMatchObject([
      { action: "contact.unsubscribed", actor_api_key_id: key.id, actor_api_key_name: key.name },
    ]);
    expect(auditLogCsv(rows)).toContain(`API key: ${key.name}`);
    const ledger = await withUser(ws.owner.claims, (tx) =>
      getConsentLedger(tx, { workspaceId: ws.id, contactId: c.id }),
    );
    expect(ledger).toMatchObject([{ action: "unsubscribed", actor: `API key: ${key.name}` }]);
  });
});
