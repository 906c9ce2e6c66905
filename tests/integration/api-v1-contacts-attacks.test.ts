import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { V1_OPERATIONS } from "@/lib/api/v1";
import * as contactsApi from "@/lib/api/v1/contacts";
import { API_SCOPES } from "@/lib/api/v1/scopes";
import { apiKeyFor, attackTargets, callOp, expectDocumented } from "../helpers/api-v1";
import { componentBody, fuzzInputs } from "../helpers/api-v1-fuzz";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";

/**
 * docs/api.md under attack, for every operation of the contacts area in V1_OPERATIONS (list with
 * the spec 4.15 filters, create, read, update by spec 4.10, delete, upsert, batch, topics, tags, notes,
 * subscribe, unsubscribe):
 * a key without the scope (403), revoked or expired (401), another workspace's ids (404), and
 * fuzzed inputs (fast-check, from the document's schemas and hostile strings): never a 500, every
 * answer as documented, nothing written outside the key's workspace.
 */
const db = setupTestDatabase();

let ws: TestWorkspace;
let victim: TestWorkspace;
const victimRows: Record<string, string> = {};
const ownRows: Record<string, string> = {};
const MADE_UP = "00000000-0000-4000-8000-000000000000";
const proof = { source: "attacker form", ip: "198.51.100.9" };

/**
 * Every operation of the contacts area in V1_OPERATIONS, with what an attack on it needs beside
 * the operation itself: a valid body for a write (so the cross-workspace answer is the path's 404,
 * not the body's 400) and extra body shapes worth fuzzing beyond the document's request body.
 */
const FIXTURES: Record<string, { body?: unknown; bodies?: () => fc.Arbitrary<unknown> }> = {
  createContact: { body: { email: "new@example.test" } },
  updateContact: { body: { first_name: "Mallory" } },
  // the victim's address: an upsert by email must only ever match within the key's workspace
  upsertContact: { body: { email: "victim@example.test", first_name: "Mallory" } },
  batchUpsertContacts: {
    body: { contacts: [{ email: "victim@example.test", first_name: "Mallory" }] },
    bodies: () =>
      fc.record({
        contacts: fc.array(
          fc.oneof(
            componentBody("ContactWrite", Object.values(victimRows)),
            fc.constant({ email: "victim@example.test", first_name: "Mallory" }),
          ),
          { minLength: 1, maxLength: 5 },
        ),
      }),
  },
  setContactTopics: { body: { topics: [], proof } },
  addContactTags: { body: { names: ["Theirs"] } },
  addContactNote: { body: { text: "planted" } },
  subscribeContact: { body: { proof } },
};

const contactsOperations = new Set<unknown>(Object.values(contactsApi));
const ENDPOINTS = attackTargets(
  V1_OPERATIONS.filter((op) => contactsOperations.has(op)),
  FIXTURES,
);
type Endpoint = (typeof ENDPOINTS)[number];

/** Everything of the victim workspace a contacts write could touch, as one comparable value. */
async function victimState() {
  const [state] = await db.sql`
    select
      (select coalesce(json_agg(c.* order by c.id), '[]') from contacts c where c.workspace_id = ${victim.id}) as contacts,
      (select coalesce(json_agg(t.* order by t.id), '[]') from tags t where t.workspace_id = ${victim.id}) as tags,
      (select coalesce(json_agg(ct.* order by ct.contact_id, ct.tag_id), '[]') from contact_tags ct where ct.workspace_id = ${victim.id}) as contact_tags,
      (select count(*)::int from notes where workspace_id = ${victim.id}) as notes,
      (select count(*)::int from consent_events where workspace_id = ${victim.id}) as consent,
      (select count(*)::int from contact_suppressions where workspace_id = ${victim.id}) as suppressions,
      (select count(*)::int from audit_log where workspace_id = ${victim.id}) as audit`;
  return state;
}

beforeAll(async () => {
  process.env.APP_URL = "http://crm.test";
  process.env.API_RATE_LIMIT = "1000000";
  ws = await createWorkspace(db.sql);
  victim = await createWorkspace(db.sql);
  const contact = await createContact(db.sql, victim.id, { email: "victim@example.test", first_name: "Vic" });
  const [tag] =
    await db.sql`insert into tags (workspace_id, name) values (${victim.id}, 'Theirs') returning id`;
  await db.sql`insert into contact_tags (workspace_id, contact_id, tag_id) values (${victim.id}, ${contact.id}, ${tag.id})`;
  Object.assign(victimRows, { contact: contact.id, tag: tag.id });
  // the attacker's own contact and tag, so fuzzed writes also reach the success paths
  const mine = await createContact(db.sql, ws.id, { email: "mine@example.test" });
  const [myTag] = await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'Mine') returning id`;
  await db.sql`insert into contact_tags (workspace_id, contact_id, tag_id) values (${ws.id}, ${mine.id}, ${myTag.id})`;
  Object.assign(ownRows, { contact: mine.id, tag: myTag.id });
});

/** Every id an answer names (ids, contact_id, tag ids), at any depth. */
function idsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => idsIn(v, found));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === "string" && (k === "id" || k.endsWith("_id"))) found.push(v);
      else idsIn(v, found);
    }
  return found;
}

/** The ids among these that belong to the victim's contacts, tags or notes. */
async function victimIdsAmong(ids: string[]) {
  const uuids = ids.filter((i) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(i));
  if (!uuids.length) return [];
  return db.sql`
    select id from contacts where workspace_id = ${victim.id} and id = any(${uuids}::uuid[])
    union all select id from tags where workspace_id = ${victim.id} and id = any(${uuids}::uuid[])
    union all select id from notes where workspace_id = ${victim.id} and id = any(${uuids}::uuid[])`;
}

const call = (
  e: Endpoint,
  key: string | undefined,
  ids: { id?: string; tag_id?: string } = {},
  extra: { body?: unknown; query?: Record<string, string> } = {},
) =>
  callOp(e.op, {
    key,
    params: {
      ...(e.path.includes("{id}") ? { id: ids.id ?? MADE_UP } : {}),
      ...(e.path.includes("{tag_id}") ? { tag_id: ids.tag_id ?? MADE_UP } : {}),
    },
    body: extra.body ?? e.body,
    query: extra.query,
  });

const theirIds = () => ({ id: victimRows.contact, tag_id: victimRows.tag });

describe.each(ENDPOINTS)("$method $path", (e) => {
  test("missing scope: a key with every other scope is 403 forbidden, nothing changes", async () => {
    const key = await apiKeyFor(
      db.sql,
      ws.id,
      API_SCOPES.filter((s) => s !== e.scope),
    );
    const before = await victimState();
    const res = await call(e, key.key, theirIds());
    expect(res.status).toBe(403);
    expect(((await expectDocumented(res, e.method, e.path)) as { error: { code: string } }).error.code).toBe(
      "forbidden",
    );
    expect(await victimState()).toEqual(before);
  });

  test("revoked, expired, unknown or no key: 401 unauthorized, alike, nothing changes", async () => {
    const revoked = await apiKeyFor(db.sql, victim.id, [e.scope], { revoked: true });
    const expired = await apiKeyFor(db.sql, victim.id, [e.scope], {
      expiresAt: new Date(Date.now() - 1000),
    });
    const before = await victimState();
    const bodies = [];
    for (const key of [revoked.key, expired.key, "evk_made_up", undefined]) {
      // the victim's own rows, with the victim's own (dead) keys
      const res = await call(e, key, theirIds());
      expect(res.status).toBe(401);
      bodies.push(await expectDocumented(res, e.method, e.path));
    }
    expect(new Set(bodies.slice(0, 3).map((b) => JSON.stringify(b))).size).toBe(1);
    expect(await victimState()).toEqual(before);
  });

  // the path names one of the victim's contacts
  if (e.path.includes("{id}"))
    test("cross-workspace: the victim's ids are 404 not_found, as made-up ones, and nothing of theirs changes", async () => {
      const key = await apiKeyFor(db.sql, ws.id, [e.scope]);
      const before = await victimState();
      const theirs = await call(e, key.key, theirIds());
      const madeUp = await call(e, key.key, { id: MADE_UP, tag_id: MADE_UP });
      expect([theirs.status, madeUp.status]).toEqual([404, 404]);
      expect(await expectDocumented(theirs, e.method, e.path)).toEqual(
        await expectDocumented(madeUp, e.method, e.path),
      );
      expect(await victimState()).toEqual(before);
    });

  test("fuzzed with schema-derived and hostile inputs: never a 500, always as documented, nothing of another workspace written or shown", async () => {
    const key = await apiKeyFor(db.sql, ws.id, API_SCOPES);
    const before = await victimState();
    const ids = [...Object.values(victimRows), ...Object.values(ownRows)];
    const inputs = fc.record({
      base: fuzzInputs(e.method, e.path, ids),
      tagId: fc.oneof(fc.constantFrom(...ids), fc.uuid(), fc.string({ maxLength: 40 })),
      body: e.bodies ? fc.option(e.bodies(), { nil: undefined }) : fc.constant(undefined),
    });
    await fc.assert(
      fc.asyncProperty(inputs, async ({ base, tagId, body }) => {
        const res = await call(
          e,
          key.key,
          { id: base.id, tag_id: tagId },
          { body: body ?? base.body, query: base.query },
        );
        expect(res.status, JSON.stringify({ base, tagId, body })).toBeLessThan(500);
        const answer = await expectDocumented(res, e.method, e.path);
        expect(await victimIdsAmong(idsIn(answer)), JSON.stringify(answer)).toEqual([]);
      }),
      { numRuns: 25 },
    );
    expect(await victimState()).toEqual(before);
  });
});

describe("GET /api/v1/contacts filters with another workspace's ids", () => {
  test("tag_ids, exclude_tag_ids and search naming the victim's rows list only the key's workspace", async () => {
    const key = await apiKeyFor(db.sql, ws.id, ["contacts:read"]);
    const queries: Record<string, string>[] = [
      { tag_ids: victimRows.tag },
      { tag_ids: `${victimRows.tag},${ownRows.tag}`, tag_mode: "any" },
      { tag_ids: `${victimRows.tag},${ownRows.tag}`, tag_mode: "all" },
      { exclude_tag_ids: victimRows.tag },
      { search: "victim@example.test" },
      {},
    ];
    const seen = new Set<string>();
    for (const query of queries) {
      const res = await callOp(contactsApi.list, { key: key.key, query });
      expect(res.status, JSON.stringify(query)).toBe(200);
      const body = (await expectDocumented(res, "GET", contactsApi.list.path)) as { data: { id: string }[] };
      body.data.forEach((c) => seen.add(c.id));
      expect(await victimIdsAmong(idsIn(body)), JSON.stringify(query)).toEqual([]);
    }
    // the unfiltered list did answer rows, so the check above had something to look at
    expect(seen.size).toBeGreaterThan(0);
    const rows = await db.sql`select workspace_id from contacts where id = any(${[...seen]}::uuid[])`;
    expect(rows.every((r) => r.workspace_id === ws.id)).toBe(true);
  });
});
