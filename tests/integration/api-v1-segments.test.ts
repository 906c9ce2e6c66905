import { beforeAll, describe, expect, test } from "vitest";
import { GET as listSegments, POST as createSegment } from "@/app/api/v1/segments/route";
import {
  DELETE as deleteSegment,
  GET as getSegment,
  PATCH as patchSegment,
} from "@/app/api/v1/segments/[id]/route";
import { GET as countSegment } from "@/app/api/v1/segments/[id]/count/route";
import { apiKeyFor, callV1, expectDocumented, type TestKey } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { auditRowsOf, createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";

/**
 * docs/api.md, saved segments through REST v1 (docs/decisions.md, "Segments"): every answer is
 * checked against the OpenAPI document, every write against the database.
 */
const db = setupTestDatabase();

beforeAll(() => {
  process.env.APP_URL = "http://crm.test";
  process.env.API_RATE_LIMIT = "100000";
});

const ONE = "/api/v1/segments/{id}";
const byTag = (tagId: string) => ({
  version: 1,
  root: { kind: "group", op: "and", conditions: [{ kind: "tag", tagIds: [tagId] }] },
});

let ws: TestWorkspace;
let other: TestWorkspace;
let rw: TestKey;
let readOnly: TestKey;
let otherKey: TestKey;
let tagId: string;

beforeAll(async () => {
  ws = await createWorkspace(db.sql);
  other = await createWorkspace(db.sql);
  rw = await apiKeyFor(db.sql, ws.id, ["contacts:read", "contacts:write"]);
  readOnly = await apiKeyFor(db.sql, ws.id, ["contacts:read"]);
  otherKey = await apiKeyFor(db.sql, other.id, ["contacts:read", "contacts:write"]);
  [{ id: tagId }] = await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'VIP') returning id`;
  for (let i = 0; i < 3; i++) {
    const c = await createContact(db.sql, ws.id);
    if (i < 2)
      await db.sql`insert into contact_tags (workspace_id, contact_id, tag_id) values (${ws.id}, ${c.id}, ${tagId})`;
  }
});

async function create(key: TestKey, body: unknown) {
  const res = await callV1(createSegment, "POST", "/api/v1/segments", { key: key.key, body });
  return { status: res.status, body: (await expectDocumented(res, "POST", "/api/v1/segments")) as never };
}

describe("REST v1 segments (docs/api.md)", () => {
  test("create, read, list, count, rename, delete: each write in the table and the audit log under the key", async () => {
    const made = await create(rw, { name: "VIPs", filter: byTag(tagId) });
    expect(made.status).toBe(201);
    const id = (made.body as { id: string }).id;
    const [row] = await db.sql`select workspace_id, name, filter from segments where id = ${id}`;
    expect(row).toMatchObject({ workspace_id: ws.id, name: "VIPs" });
    expect(row.filter.root.conditions[0].tagIds).toEqual([tagId]);

    const read = await callV1(getSegment, "GET", ONE, { key: readOnly.key, params: { id } });
    expect(await expectDocumented(read, "GET", ONE)).toMatchObject({ id, name: "VIPs" });

    const count = await callV1(countSegment, "GET", `${ONE}/count`, { key: readOnly.key, params: { id } });
    expect(await expectDocumented(count, "GET", `${ONE}/count`)).toEqual({ count: 2 });

    const list = await callV1(listSegments, "GET", "/api/v1/segments", { key: readOnly.key });
    const page = (await expectDocumented(list, "GET", "/api/v1/segments")) as { data: { id: string }[] };
    expect(page.data.map((s) => s.id)).toContain(id);

    const renamed = await callV1(patchSegment, "PATCH", ONE, {
      key: rw.key,
      params: { id },
      body: { name: "Top customers" },
    });
    expect(renamed.status).toBe(200);
    await expectDocumented(renamed, "PATCH", ONE);
    const [after] = await db.sql`select name, filter from segments where id = ${id}`;
    expect(after.name).toBe("Top customers");
    expect(after.filter.root.conditions[0].tagIds).toEqual([tagId]);

    const gone = await callV1(deleteSegment, "DELETE", ONE, { key: rw.key, params: { id } });
    expect(gone.status).toBe(204);
    expect(await db.sql`select 1 from segments where id = ${id}`).toHaveLength(0);
    const audit = await auditRowsOf(db.sql, id);
    expect(audit.map((a) => a.action)).toEqual(["segment.created", "segment.deleted", "segment.updated"]);
    expect(audit.every((a) => a.actor_api_key_id === rw.id)).toBe(true);
  });

  test("an invalid filter is 400 invalid_request naming the field, and nothing is stored", async () => {
    const bad = [
      {
        name: "Bad tag",
        filter: {
          version: 1,
          root: { kind: "group", op: "and", conditions: [{ kind: "tag", tagIds: ["nope"] }] },
        },
      },
      {
        name: "Bad kind",
        filter: { version: 1, root: { kind: "group", op: "and", conditions: [{ kind: "shoe_size" }] } },
      },
      { name: "Bad version", filter: { version: 2, root: { kind: "group", op: "and", conditions: [] } } },
      { name: "", filter: byTag(tagId) },
    ];
    for (const body of bad) {
      const res = await create(rw, body);
      expect(res.status).toBe(400);
      const error = (res.body as { error: { code: string; fields: Record<string, string> } }).error;
      expect(error.code).toBe("invalid_request");
      expect(Object.keys(error.fields).length).toBeGreaterThan(0);
    }
    const made = (await create(rw, { name: "Kept", filter: byTag(tagId) })).body as { id: string };
    const patch = await callV1(patchSegment, "PATCH", ONE, {
      key: rw.key,
      params: { id: made.id },
      body: { filter: { version: 1, root: { kind: "group", op: "xor", conditions: [] } } },
    });
    expect(patch.status).toBe(400);
    await expectDocumented(patch, "PATCH", ONE);
    expect(
      await db.sql`select 1 from segments where workspace_id = ${ws.id} and name like 'Bad%'`,
    ).toHaveLength(0);
    const [kept] = await db.sql`select filter from segments where id = ${made.id}`;
    expect(kept.filter.root.op).toBe("and");
  });

  test("a duplicate name is 409 conflict", async () => {
    expect((await create(rw, { name: "Twice", filter: byTag(tagId) })).status).toBe(201);
    const again = await create(rw, { name: "Twice", filter: byTag(tagId) });
    expect(again.status).toBe(409);
    expect(
      await db.sql`select 1 from segments where workspace_id = ${ws.id} and name = 'Twice'`,
    ).toHaveLength(1);
  });

  test("attack: another workspace's segment id reads as a made-up one (404 not_found) for every operation", async () => {
    const theirs = await create(otherKey, { name: "Theirs", filter: byTag(tagId) });
    const id = (theirs.body as { id: string }).id;
    const madeUp = "00000000-0000-4000-8000-000000000000";
    for (const probe of [id, madeUp]) {
      const answers = [
        await callV1(getSegment, "GET", ONE, { key: rw.key, params: { id: probe } }),
        await callV1(countSegment, "GET", `${ONE}/count`, { key: rw.key, params: { id: probe } }),
        await callV1(patchSegment, "PATCH", ONE, {
          key: rw.key,
          params: { id: probe },
          body: { name: "Mine" },
        }),
        await callV1(deleteSegment, "DELETE", ONE, { key: rw.key, params: { id: probe } }),
      ];
      for (const res of answers) {
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: { code: "not_found", message: "Segment not found." } });
      }
    }
    const [row] = await db.sql`select workspace_id, name from segments where id = ${id}`;
    expect(row).toEqual({ workspace_id: other.id, name: "Theirs" });
    const list = await callV1(listSegments, "GET", "/api/v1/segments", {
      key: rw.key,
      query: { limit: "100" },
    });
    const page = (await list.json()) as { data: { id: string }[] };
    expect(page.data.map((s) => s.id)).not.toContain(id);
  });

  test("attack: a key without contacts:write cannot create, change or delete a segment (403 forbidden)", async () => {
    const [mine] = await db.sql`
      insert into segments (workspace_id, name, filter) values (${ws.id}, 'Scoped', ${db.sql.json(byTag(tagId))})
      returning id`;
    const answers = [
      await callV1(createSegment, "POST", "/api/v1/segments", {
        key: readOnly.key,
        body: { name: "Sneaky", filter: byTag(tagId) },
      }),
      await callV1(patchSegment, "PATCH", ONE, {
        key: readOnly.key,
        params: { id: mine.id },
        body: { name: "Sneaky" },
      }),
      await callV1(deleteSegment, "DELETE", ONE, { key: readOnly.key, params: { id: mine.id } }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    }
    const events = await apiKeyFor(db.sql, ws.id, ["events:read"]);
    const read = await callV1(countSegment, "GET", `${ONE}/count`, {
      key: events.key,
      params: { id: mine.id },
    });
    expect(read.status).toBe(403);
    expect(await db.sql`select name from segments where id = ${mine.id}`).toEqual([{ name: "Scoped" }]);
    expect(await db.sql`select 1 from segments where name = 'Sneaky'`).toHaveLength(0);
  });
});
