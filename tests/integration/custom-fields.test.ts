import { describe, expect, test } from "vitest";
import { withService, withUser, type Db } from "@/lib/db/doors";
import {
  customFieldFilterSql,
  listCustomFields,
  validateCustomFieldValues,
  writeCustomFieldValues,
  type CustomFieldFilter,
} from "@/lib/contacts/custom-fields";
import * as contactsRoute from "@/app/api/v1/contacts/route";
import * as contactRoute from "@/app/api/v1/contacts/[id]/route";
import * as upsertRoute from "@/app/api/v1/contacts/upsert/route";
import { importContactsCsv } from "@/lib/contacts/import-contacts-csv";
import { eraseContact } from "@/lib/privacy/erase-contact";
import { getContacts } from "@/lib/contacts/get-contacts";
import { parseListQuery } from "@/lib/contacts/list-query";
import { exportContactData } from "@/lib/privacy/export-contact-data";
import { apiKeyFor, callV1, expectDocumented } from "../helpers/api-v1";
import { bytesOf } from "../helpers/csv";
import { createForm, submit } from "../helpers/forms";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace, type TestUser } from "../helpers/factories";

// docs/api.md "Custom fields"; docs/decisions.md, "Custom fields".
const db = setupTestDatabase();

const as =
  (user: TestUser) =>
  <T>(fn: (tx: Db) => Promise<T>): Promise<T> =>
    withUser(user.claims, fn);

/** A workspace with one field of each type, defined by the superuser. */
async function workspaceWithFields() {
  const ws = await createWorkspace(db.sql);
  await db.sql`insert into public.custom_fields (workspace_id, key, label, field_type, options, is_required, is_personal, position)
    values (${ws.id}, 'nickname', 'Nickname', 'text', '{}', false, true, 1),
           (${ws.id}, 'score', 'Score', 'number', '{}', false, false, 2),
           (${ws.id}, 'joined_on', 'Joined on', 'date', '{}', false, false, 3),
           (${ws.id}, 'vip', 'VIP', 'boolean', '{}', false, false, 4),
           (${ws.id}, 'tier', 'Tier', 'select', '{gold,silver}', true, false, 5),
           (${ws.id}, 'interests', 'Interests', 'multi_select', '{music,art,food}', false, false, 6)`;
  return ws;
}

const stored = async (contactId: string) =>
  (await db.sql`select custom_fields from public.contacts where id = ${contactId}`)[0].custom_fields;

describe("a custom field's type is enforced by the database", () => {
  test("a member's direct update through RLS with a wrong type, an unknown option or an undefined key is refused", async () => {
    const ws = await workspaceWithFields();
    const member = await addMember(db.sql, ws.id, "member");
    const contact = await createContact(db.sql, ws.id);
    const bad: Record<string, unknown>[] = [
      { score: "12" },
      { vip: "yes" },
      { joined_on: "2026-02-30" },
      { joined_on: "yesterday" },
      { tier: "bronze" },
      { interests: ["music", "sports"] },
      { interests: "music" },
      { interests: ["art", "art"] },
      { nickname: 42 },
      { undefined_key: "x" },
    ];
    for (const value of bad) {
      await expect(
        as(member)(
          (tx) =>
            tx`update public.contacts set custom_fields = ${tx.json(value as never)} where id = ${contact.id}`,
        ),
        JSON.stringify(value),
      ).rejects.toMatchObject({ code: "23514", message: expect.stringMatching(/^custom field /) });
    }
    expect(await stored(contact.id)).toEqual({});
    const good = {
      score: 12.5,
      vip: true,
      joined_on: "2024-02-29",
      tier: "gold",
      interests: ["art"],
      nickname: "Ada",
    };
    await as(member)(
      (tx) => tx`update public.contacts set custom_fields = ${tx.json(good)} where id = ${contact.id}`,
    );
    expect(await stored(contact.id)).toEqual(good);
  });

  test("a member's direct insert through RLS with a value of the wrong type is refused", async () => {
    const ws = await workspaceWithFields();
    const member = await addMember(db.sql, ws.id, "member");
    await expect(
      as(member)(
        (tx) => tx`insert into public.contacts (workspace_id, email, custom_fields)
                   values (${ws.id}, 'typed@example.test', ${tx.json({ score: true })})`,
      ),
    ).rejects.toMatchObject({ code: "23514" });
    expect(await db.sql`select 1 from public.contacts where workspace_id = ${ws.id}`).toHaveLength(0);
  });

  test("cross-workspace: a key defined only in another workspace is refused, even for the service", async () => {
    const ws = await workspaceWithFields();
    const other = await createWorkspace(db.sql);
    const contact = await createContact(db.sql, other.id);
    await expect(
      withService(
        (tx) =>
          tx`update public.contacts set custom_fields = '{"tier": "gold"}'::jsonb where id = ${contact.id}`,
      ),
    ).rejects.toMatchObject({ code: "23514" });
    expect(ws.id).not.toBe(other.id);
  });

  test("definitions: only owners and admins define fields; key and type never change", async () => {
    const ws = await workspaceWithFields();
    const member = await addMember(db.sql, ws.id, "member");
    const admin = await addMember(db.sql, ws.id, "admin");
    await expect(
      as(member)(
        (tx) =>
          tx`insert into public.custom_fields (workspace_id, key, label, field_type) values (${ws.id}, 'x', 'X', 'text')`,
      ),
    ).rejects.toMatchObject({ code: "42501" });
    await as(admin)(
      (tx) =>
        tx`insert into public.custom_fields (workspace_id, key, label, field_type) values (${ws.id}, 'x', 'X', 'text')`,
    );
    await expect(
      as(admin)(
        (tx) =>
          tx`update public.custom_fields set field_type = 'number' where workspace_id = ${ws.id} and key = 'x'`,
      ),
    ).rejects.toMatchObject({ code: "42501" });
    await expect(
      withService(
        (tx) => tx`update public.custom_fields set key = 'y' where workspace_id = ${ws.id} and key = 'x'`,
      ),
    ).rejects.toMatchObject({ code: "23514" });
    expect((await listCustomFields(db.sql as unknown as Db, ws.id)).map((f) => f.key)).toContain("x");
  });

  test("an option still held by a contact cannot be removed; deleting a field removes its values", async () => {
    const ws = await workspaceWithFields();
    const contact = await createContact(db.sql, ws.id, {
      custom_fields: db.sql.json({ tier: "gold", score: 3 }),
    });
    await expect(
      as(ws.owner)(
        (tx) =>
          tx`update public.custom_fields set options = '{silver}' where workspace_id = ${ws.id} and key = 'tier'`,
      ),
    ).rejects.toMatchObject({ code: "23514" });
    await as(ws.owner)(
      (tx) => tx`delete from public.custom_fields where workspace_id = ${ws.id} and key = 'tier'`,
    );
    expect(await stored(contact.id)).toEqual({ score: 3 });
  });
});

describe("the interface: validate, write, filter", () => {
  test("validateCustomFieldValues refuses a wrong type with the key as field, and a missing required field", async () => {
    const ws = await workspaceWithFields();
    const fields = await withService((tx) => listCustomFields(tx, ws.id));
    const wrong = validateCustomFieldValues(fields, { score: "ten", tier: "gold" });
    expect("error" in wrong && wrong.error.field).toBe("score");
    const missing = validateCustomFieldValues(fields, { score: 1 }, { enforceRequired: true });
    expect("error" in missing && missing.error.field).toBe("tier");
    expect(validateCustomFieldValues(fields, { score: 1, tier: "gold", vip: null })).toEqual({
      data: { score: 1, tier: "gold", vip: null },
    });
  });

  test("writeCustomFieldValues merges keys, clears null ones and reports the change", async () => {
    const ws = await workspaceWithFields();
    const contact = await createContact(db.sql, ws.id, {
      custom_fields: db.sql.json({ tier: "gold", score: 3 }),
    });
    const result = await withService((tx) =>
      writeCustomFieldValues(tx, {
        workspaceId: ws.id,
        contactId: contact.id,
        values: { score: null, vip: false },
      }),
    );
    expect(result).toEqual({
      data: {
        before: { tier: "gold", score: 3 },
        after: { tier: "gold", vip: false },
        changed: ["score", "vip"],
      },
    });
    expect(await stored(contact.id)).toEqual({ tier: "gold", vip: false });
  });

  test("customFieldFilterSql: equality, contains-any, ranges and is-set", async () => {
    const ws = await workspaceWithFields();
    const a = await createContact(db.sql, ws.id, {
      custom_fields: db.sql.json({
        tier: "gold",
        score: 10,
        joined_on: "2025-01-05",
        interests: ["art", "music"],
      }),
    });
    const b = await createContact(db.sql, ws.id, {
      custom_fields: db.sql.json({ tier: "silver", score: 2, interests: ["food"] }),
    });
    const c = await createContact(db.sql, ws.id);
    const fields = await withService((tx) => listCustomFields(tx, ws.id));
    const field = (key: string) => fields.find((f) => f.key === key)!;
    const match = (key: string, filter: CustomFieldFilter) =>
      as(ws.owner)(async (tx) =>
        (
          await tx<{ id: string }[]>`select c.id from public.contacts c
            where c.workspace_id = ${ws.id} and ${customFieldFilterSql(tx, field(key), filter)} order by c.id`
        ).map((r) => r.id),
      );
    const ids = (...list: { id: string }[]) => list.map((x) => x.id).sort();
    expect(await match("tier", { op: "eq", value: "gold" })).toEqual(ids(a));
    expect(await match("interests", { op: "any", values: ["music", "food"] })).toEqual(ids(a, b));
    expect(await match("score", { op: "range", min: 3 })).toEqual(ids(a));
    expect(await match("joined_on", { op: "range", min: "2025-01-01", max: "2025-12-31" })).toEqual(ids(a));
    expect(await match("score", { op: "set" })).toEqual(ids(a, b));
    expect(await match("score", { op: "not_set" })).toEqual(ids(c));

    // the contacts list: the URL's cf.<key> parameters, with the exact total
    const { query } = parseListQuery({ "cf.tier": "Gold", "cf.score.min": "3", "cf.interests": "art,food" });
    const page = await as(ws.owner)((tx) => getContacts(tx, { ...query, workspaceId: ws.id }));
    expect("data" in page && { total: page.total, ids: page.data.map((r) => r.id) }).toEqual({
      total: 1,
      ids: [a.id],
    });
    const unknown = parseListQuery({ "cf.nope": "x" }).query;
    const refusal = await as(ws.owner)((tx) => getContacts(tx, { ...unknown, workspaceId: ws.id }));
    expect("error" in refusal && refusal.error.code).toBe("invalid");
  });
});

describe("REST v1: custom_fields on the contact (docs/api.md)", () => {
  test("POST with a wrong type or an unknown option is 400 invalid_request with the key in fields, and nothing is stored", async () => {
    const ws = await workspaceWithFields();
    const key = await apiKeyFor(db.sql, ws.id, ["contacts:write", "contacts:read"]);
    for (const custom_fields of [{ tier: "gold", score: "ten" }, { tier: "bronze" }]) {
      const res = await callV1(contactsRoute.POST, "POST", "/api/v1/contacts", {
        key: key.key,
        body: { email: "typed@example.test", custom_fields },
      });
      expect(res.status).toBe(400);
      const body = (await expectDocumented(res, "POST", "/api/v1/contacts")) as {
        error: { code: string; fields: Record<string, string> };
      };
      expect(body.error.code).toBe("invalid_request");
      const bad = "score" in custom_fields ? "score" : "tier";
      expect(Object.keys(body.error.fields)).toContain(bad);
    }
    expect(await db.sql`select 1 from public.contacts where workspace_id = ${ws.id}`).toHaveLength(0);
  });

  test("POST requires the required fields; GET returns the values; PATCH null clears, an overwrite is noted", async () => {
    const ws = await workspaceWithFields();
    const key = await apiKeyFor(db.sql, ws.id, ["contacts:write", "contacts:read"]);
    const missing = await callV1(contactsRoute.POST, "POST", "/api/v1/contacts", {
      key: key.key,
      body: { email: "req@example.test", custom_fields: { score: 1 } },
    });
    expect(missing.status).toBe(400);
    const res = await callV1(contactsRoute.POST, "POST", "/api/v1/contacts", {
      key: key.key,
      body: { email: "req@example.test", custom_fields: { tier: "gold", interests: ["art"], score: 1 } },
    });
    expect(res.status).toBe(201);
    const contact = (await expectDocumented(res, "POST", "/api/v1/contacts")) as { id: string };
    const got = await callV1(contactRoute.GET, "GET", "/api/v1/contacts/{id}", {
      key: key.key,
      params: { id: contact.id },
    });
    expect(
      ((await expectDocumented(got, "GET", "/api/v1/contacts/{id}")) as { custom_fields: unknown })
        .custom_fields,
    ).toEqual({
      tier: "gold",
      interests: ["art"],
      score: 1,
    });
    const patched = await callV1(contactRoute.PATCH, "PATCH", "/api/v1/contacts/{id}", {
      key: key.key,
      params: { id: contact.id },
      body: { custom_fields: { tier: "silver", score: null } },
    });
    expect(patched.status).toBe(200);
    expect(await stored(contact.id)).toEqual({ tier: "silver", interests: ["art"] });
    const [note] =
      await db.sql`select content_text from public.notes where contact_id = ${contact.id} and created_by is null`;
    expect(note.content_text).toContain('Tier: "gold" → "silver"');
  });

  test("upsert merges custom fields by spec 4.10: an overwritten value is noted and audited by key", async () => {
    const ws = await workspaceWithFields();
    const key = await apiKeyFor(db.sql, ws.id, ["contacts:write"]);
    const contact = await createContact(db.sql, ws.id, {
      custom_fields: db.sql.json({ tier: "gold", nickname: "Ada" }),
    });
    const res = await callV1(upsertRoute.POST, "POST", "/api/v1/contacts/upsert", {
      key: key.key,
      body: { email: contact.email, custom_fields: { nickname: "Countess", vip: true } },
    });
    expect(res.status).toBe(200);
    expect(await stored(contact.id)).toEqual({ tier: "gold", nickname: "Countess", vip: true });
    const [note] =
      await db.sql`select content_text from public.notes where contact_id = ${contact.id} and created_by is null`;
    expect(note.content_text).toContain('Nickname: "Ada" → "Countess"');
    const [audit] =
      await db.sql`select after from public.audit_log where target_id = ${contact.id} and action = 'contact.updated'`;
    expect(audit.after.changed).toEqual(["custom_fields.nickname"]);
  });

  test("audit: a PATCH's before/after shows plain values but redacts fields marked personal", async () => {
    const ws = await workspaceWithFields();
    const key = await apiKeyFor(db.sql, ws.id, ["contacts:write"]);
    const contact = await createContact(db.sql, ws.id, {
      custom_fields: db.sql.json({ nickname: "Ada", score: 1 }),
    });
    const res = await callV1(contactRoute.PATCH, "PATCH", "/api/v1/contacts/{id}", {
      key: key.key,
      params: { id: contact.id },
      body: { custom_fields: { nickname: "Countess", score: 2 } },
    });
    expect(res.status).toBe(200);
    const [audit] =
      await db.sql`select before, after from public.audit_log where target_id = ${contact.id} and action = 'contact.updated'`;
    expect(audit.before.custom_fields).toEqual({ nickname: "[changed]", score: 1 });
    expect(audit.after.custom_fields).toEqual({ nickname: "[changed]", score: 2 });
    expect(JSON.stringify(audit)).not.toContain("Countess");
    expect(JSON.stringify(audit)).not.toContain("Ada");
  });
});

describe("forms and imports fill custom fields by key", () => {
  test("a form's extra keys map to fields (converted from text); a value that does not fit is left out, the lead kept", async () => {
    const ws = await workspaceWithFields();
    const form = await createForm(db.sql, ws.id, { require_verification: false });
    const res = await submit(form.id, {
      form: {
        email: "lead@example.test",
        tier: "Gold",
        score: "1,250",
        vip: "yes",
        interests: "art; music",
        joined_on: "soon",
      },
    });
    expect(res.status).toBeLessThan(400);
    const [contact] =
      await db.sql`select id from public.contacts where workspace_id = ${ws.id} and email = 'lead@example.test'`;
    expect(await stored(contact.id)).toEqual({
      tier: "gold",
      score: 1250,
      vip: true,
      interests: ["art", "music"],
    });
  });

  test("a form never overwrites a stored value (spec 4.2.2 B.1), only fills an empty one", async () => {
    const ws = await workspaceWithFields();
    const form = await createForm(db.sql, ws.id, { require_verification: false });
    const contact = await createContact(db.sql, ws.id, { custom_fields: db.sql.json({ tier: "silver" }) });
    await submit(form.id, { json: { email: contact.email, tier: "gold", score: 4 } });
    expect(await stored(contact.id)).toEqual({ tier: "silver", score: 4 });
  });

  test("import: a column whose header is a field's key fills it; a bad value skips the row with the key named", async () => {
    const ws = await workspaceWithFields();
    const existing = await createContact(db.sql, ws.id, {
      custom_fields: db.sql.json({ tier: "gold", vip: true }),
    });
    const csv = [
      "Email,First name,Tier,score,interests,unknown_column",
      "new@example.test,Ada,silver,7,art;food,x",
      `${existing.email},,silver,,,`,
      "bad@example.test,,platinum,1,,",
    ].join("\n");
    const result = await withUser(ws.owner.claims, (tx) =>
      importContactsCsv(tx, {
        workspaceId: ws.id,
        file: bytesOf(csv),
        markSubscribed: false,
        uploaderIp: null,
        actorUserId: ws.owner.id,
      }),
    );
    if ("error" in result) throw result.error;
    expect(result.data.errors).toEqual([
      expect.objectContaining({ row: 4, reason: expect.stringContaining("tier") }),
    ]);
    const [created] =
      await db.sql`select id from public.contacts where workspace_id = ${ws.id} and email = 'new@example.test'`;
    expect(await stored(created.id)).toEqual({ tier: "silver", score: 7, interests: ["art", "food"] });
    expect(await stored(existing.id)).toEqual({ tier: "silver", vip: true });
    expect(await db.sql`select 1 from public.contacts where email = 'bad@example.test'`).toHaveLength(0);
  });
});

describe("privacy requests (docs/decisions.md, 'Privacy requests')", () => {
  test("the privacy export lists the contact's custom field values with their labels", async () => {
    const ws = await workspaceWithFields();
    const contact = await createContact(db.sql, ws.id, {
      custom_fields: db.sql.json({ nickname: "Ada", score: 3 }),
    });
    const result = await withUser(ws.owner.claims, (tx) =>
      exportContactData(tx, { workspaceId: ws.id, contactId: contact.id }),
    );
    if ("error" in result) throw result.error;
    expect(result.data.custom_fields).toEqual([
      { key: "nickname", label: "Nickname", personal: true, value: "Ada" },
      { key: "score", label: "Score", personal: false, value: 3 },
    ]);
  });

  test("erasure removes the values with the contact; the audit log never held the personal ones", async () => {
    const ws = await workspaceWithFields();
    const key = await apiKeyFor(db.sql, ws.id, ["contacts:write"]);
    const contact = await createContact(db.sql, ws.id, { custom_fields: db.sql.json({ nickname: "Ada" }) });
    await callV1(contactRoute.PATCH, "PATCH", "/api/v1/contacts/{id}", {
      key: key.key,
      params: { id: contact.id },
      body: { custom_fields: { nickname: "Lovelace-Secret" } },
    });
    const result = await withService((tx) =>
      eraseContact(tx, {
        workspaceId: ws.id,
        contactId: contact.id,
        confirmation: contact.email,
        actorUserId: ws.owner.id,
      }),
    );
    expect("data" in result).toBe(true);
    const [left] = await db.sql`
      select (select count(*) from public.contacts where workspace_id = ${ws.id} and custom_fields::text like '%Lovelace%')::int as contacts,
             (select count(*) from public.audit_log where workspace_id = ${ws.id} and (coalesce(before::text, '') || coalesce(after::text, '')) like '%Lovelace%')::int as audit,
             (select count(*) from public.notes where workspace_id = ${ws.id} and content_text like '%Lovelace%')::int as notes`;
    expect(left).toEqual({ contacts: 0, audit: 0, notes: 0 });
  });
});
