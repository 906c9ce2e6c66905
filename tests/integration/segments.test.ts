import { beforeAll, describe, expect, test } from "vitest";
import { withService, withUser, type Claims } from "@/lib/db/doors";
import { apiErrorBody, invalidFromZod } from "@/lib/api/v1/errors";
import { audienceSchema } from "@/lib/email/broadcast-audience";
import { createBroadcast } from "@/lib/email/broadcasts";
import { sendBroadcastBatch, type TxRunner } from "@/lib/email/flows/send-broadcast-batch";
import { AppError } from "@/lib/errors/app-error";
import { countSegment } from "@/lib/segments/count-segment";
import { contactSegments } from "@/lib/segments/contact-segments";
import { explainContact, type Explained } from "@/lib/segments/explain-contact";
import { leaves, segmentFilterSchema, type SegmentFilter } from "@/lib/segments/filter";
import { getSegment } from "@/lib/segments/get-segment";
import { saveSegment } from "@/lib/segments/save-segment";
import { listQueryToFilter } from "@/lib/segments/from-list-query";
import { segmentContactsCsv } from "@/lib/segments/segment-contacts-csv";
import { getContacts } from "@/lib/contacts/get-contacts";
import { parseListQuery } from "@/lib/contacts/list-query";
import { setupTestDatabase } from "../helpers/db";
import { apiKey, call } from "../helpers/api-v1";
import * as contactsRoute from "@/app/api/v1/contacts/route";
import { createWorkspace, type TestWorkspace } from "../helpers/factories";
import {
  KINDS,
  oracleCondition,
  oracleMatches,
  randomCondition,
  randomFilter,
  rng,
  seedContacts,
  type OracleContact,
  type Pools,
} from "../helpers/segment-oracle";

const db = setupTestDatabase();
const SEED = Number(process.env.SEGMENTS_SEED ?? 20261127);

async function pools(workspaceId: string): Promise<Pools> {
  const make = async (table: string, n: number, extra = "") =>
    (
      await db.sql.unsafe(
        `insert into public.${table} (workspace_id, ${extra ? "subject" : "name"})
         select $1, '${table} ' || i from generate_series(1, ${n}) i returning id`,
        [workspaceId],
      )
    ).map((r) => r.id as string);
  return {
    tags: await make("tags", 4),
    forms: await make("forms", 2),
    events: await make("events", 2),
    products: await make("products", 2),
    broadcasts: await make("broadcasts", 2, "subject"),
  };
}

let a: TestWorkspace;
let b: TestWorkspace;
let poolsA: Pools;
let poolsB: Pools;
let contactsA: OracleContact[];

const count = (ws: TestWorkspace, filter: SegmentFilter) =>
  withUser(ws.owner.claims, (tx) => countSegment(tx, { workspaceId: ws.id, filter }));
const bruteForce = (filter: SegmentFilter) => contactsA.filter((c) => oracleMatches(c, filter.root)).length;
const parse = (filter: SegmentFilter) => segmentFilterSchema.parse(filter);

beforeAll(async () => {
  a = await createWorkspace(db.sql);
  b = await createWorkspace(db.sql);
  poolsA = await pools(a.id);
  poolsB = await pools(b.id);
  // custom fields (docs/decisions.md, "Custom fields"): b uses the key 'points' for text
  await db.sql`insert into public.custom_fields (workspace_id, key, label, field_type, options) values
    (${a.id}, 'points', 'Points', 'number', '{}'), (${a.id}, 'tier', 'Tier', 'select', '{gold,silver}'),
    (${b.id}, 'points', 'Points', 'text', '{}')`;
  const r = rng(SEED);
  contactsA = await seedContacts(db.sql, r, a.id, poolsA, 70, true);
  await seedContacts(db.sql, r, b.id, poolsB, 25);
}, 120_000);

describe("segments: the compiled count equals a brute-force count on random data", () => {
  test("each condition kind alone, negated or not, with ids from both workspaces", async () => {
    const r = rng(SEED + 1);
    for (const kind of KINDS) {
      for (let i = 0; i < 6; i++) {
        const filter = parse({
          version: 1,
          root: {
            kind: "group",
            op: "and",
            not: false,
            conditions: [randomCondition(r, kind, [poolsA, poolsB])],
          },
        });
        expect({ kind, filter, n: await count(a, filter) }).toEqual({ kind, filter, n: bruteForce(filter) });
      }
    }
  });

  test("random AND/OR trees of conditions, some groups negated", async () => {
    const r = rng(SEED + 2);
    let nonEmpty = 0;
    for (let i = 0; i < 40; i++) {
      const filter = parse(randomFilter(r, [poolsA, poolsB]));
      const expected = bruteForce(filter);
      if (expected > 0 && expected < contactsA.length) nonEmpty++;
      expect({ filter, n: await count(a, filter) }).toEqual({ filter, n: expected });
    }
    // the random trees are not all trivially everyone or no one
    expect(nonEmpty).toBeGreaterThan(10);
  });

  test("another workspace's tag, form, event, product and broadcast ids match none of its rows", async () => {
    const foreign = [
      { kind: "tag", match: "any", tagIds: poolsB.tags },
      { kind: "form_submitted", formId: poolsB.forms[0] },
      { kind: "event_registered", eventId: poolsB.events[0] },
      { kind: "event_attended", eventId: poolsB.events[0] },
      { kind: "purchased", productId: poolsB.products[0] },
      { kind: "email_engagement", event: "delivered", broadcastId: poolsB.broadcasts[0] },
    ];
    for (const condition of foreign) {
      const filter = parse({
        version: 1,
        root: { kind: "group", op: "and", conditions: [condition] },
      } as never);
      expect({ condition, n: await count(a, filter) }).toEqual({ condition, n: 0 });
    }
    // and b's own count of its own tag is not zero: the ids are real
    const own = parse({
      version: 1,
      root: { kind: "group", op: "or", conditions: poolsB.tags.map((t) => ({ kind: "tag", tagIds: [t] })) },
    } as never);
    expect(await count(b, own)).toBeGreaterThan(0);
  });
});

describe("segments: the contact list's URL filters are the same filter object", () => {
  test("a list query's total equals its filter's count, and ?segment= narrows the list to the segment", async () => {
    const r = rng(SEED + 5);
    for (let i = 0; i < 12; i++) {
      const sp = {
        tagIds: r.chance(0.5) ? [r.pick(poolsA.tags), r.pick(poolsA.tags)] : undefined,
        tagMode: r.pick(["any", "all"]),
        excludeTagIds: r.chance(0.4) ? r.pick(poolsA.tags) : undefined,
        source: r.chance(0.3) ? r.pick(["form", "manual", "import"]) : undefined,
        eventId: r.chance(0.3) ? r.pick(poolsA.events) : undefined,
        emailStatus: r.chance(0.3) ? r.pick(["subscribed", "suppressed", "unsubscribed"]) : undefined,
        search: r.chance(0.3) ? r.pick(["ann", "555", "lee"]) : undefined,
      };
      const { query } = parseListQuery(sp);
      const filter = parse(listQueryToFilter(query));
      const segment = parse(randomFilter(r, [poolsA]));
      const [list, narrowed] = await withUser(a.owner.claims, (tx) =>
        Promise.all([
          getContacts(tx, { ...query, workspaceId: a.id }),
          getContacts(tx, { ...query, workspaceId: a.id, segment }),
        ]),
      );
      if ("error" in list || "error" in narrowed) throw new Error("refused");
      expect({ sp, total: list.total }).toEqual({ sp, total: bruteForce(filter) });
      const both = contactsA.filter((c) => oracleMatches(c, filter.root) && oracleMatches(c, segment.root));
      expect({ sp, segment, total: narrowed.total }).toEqual({ sp, segment, total: both.length });
    }
  });

  test("the CSV export of a segment holds exactly its contacts", async () => {
    const filter = parse(randomFilter(rng(SEED + 6), [poolsA]));
    const { csv, rows } = await withUser(a.owner.claims, (tx) =>
      segmentContactsCsv(tx, { workspaceId: a.id, filter }),
    );
    const emails = csv
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((line) => line.split(",")[0]);
    expect(rows).toBe(bruteForce(filter));
    expect(emails.sort()).toEqual(
      contactsA
        .filter((c) => oracleMatches(c, filter.root))
        .map((c) => c.email)
        .sort(),
    );
  });
});

describe("segments: REST v1 GET /api/v1/contacts?segment_id=", () => {
  test("lists exactly the segment's contacts; another workspace's segment is 404 not_found", async () => {
    const filter = parse(randomFilter(rng(SEED + 7), [poolsA]));
    const mine = await withUser(a.owner.claims, (tx) =>
      saveSegment(tx, { workspaceId: a.id, name: "API", filter }),
    );
    const theirs = await withUser(b.owner.claims, (tx) =>
      saveSegment(tx, {
        workspaceId: b.id,
        name: "API theirs",
        filter: parse(randomFilter(rng(5), [poolsB])),
      }),
    );
    if ("error" in mine || "error" in theirs) throw new Error("not saved");
    // a random filter may hold any condition: the key reads every area (docs/api.md, "Scopes and the data they reach")
    const key = await apiKey(db.sql, a.id, [
      "contacts:read",
      "events:read",
      "transactions:read",
      "forms:read",
      "email:read",
    ]);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const path = `/api/v1/contacts?limit=100&segment_id=${mine.data.id}${cursor ? `&cursor=${cursor}` : ""}`;
      const res = await call(contactsRoute.GET, { path, key: key.raw });
      expect(res.status).toBe(200);
      ids.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(ids.sort()).toEqual(
      contactsA
        .filter((c) => oracleMatches(c, filter.root))
        .map((c) => c.id)
        .sort(),
    );
    const other = await call(contactsRoute.GET, {
      path: `/api/v1/contacts?segment_id=${theirs.data.id}`,
      key: key.raw,
    });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe("not_found");
  });
});

describe("segments: the explainer says why a contact is in or out", () => {
  test("each condition's answer and the whole tree's match the brute force", async () => {
    const r = rng(SEED + 3);
    for (let i = 0; i < 12; i++) {
      const filter = parse(randomFilter(r, [poolsA]));
      const contact = r.pick(contactsA);
      const result = await withUser(a.owner.claims, (tx) =>
        explainContact(tx, { workspaceId: a.id, contactId: contact.id, filter }),
      );
      if ("error" in result) throw result.error;
      expect(result.data.matches).toBe(oracleMatches(contact, filter.root));
      const answers: boolean[] = [];
      const walk = (e: Explained) =>
        e.kind === "group" ? e.conditions.forEach(walk) : answers.push(e.matches);
      walk(result.data);
      expect(answers).toEqual(
        leaves(filter.root).map((k) => (k.not ? !oracleCondition(contact, k) : oracleCondition(contact, k))),
      );
    }
  });

  test("another workspace's contact is not found", async () => {
    const [other] = await db.sql`select id from public.contacts where workspace_id = ${b.id} limit 1`;
    const result = await withUser(a.owner.claims, (tx) =>
      explainContact(tx, {
        workspaceId: a.id,
        contactId: other.id,
        filter: parse(randomFilter(rng(1), [poolsA])),
      }),
    );
    expect("error" in result && result.error.code).toBe("not_found");
  });
});

describe("segments: saved, validated, scoped to the workspace", () => {
  test("zod refuses a bad filter with invalid_request and the fields at fault; nothing is stored", async () => {
    const bad = {
      version: 1,
      root: {
        kind: "group",
        op: "and",
        conditions: [{ kind: "tag", tagIds: ["not-a-uuid"] }, { kind: "nope" }],
      },
    };
    const parsed = segmentFilterSchema.safeParse(bad);
    expect(parsed.success).toBe(false);
    const body = apiErrorBody(invalidFromZod(parsed.error!, "filter"));
    expect(body.error.code).toBe("invalid_request");
    expect(Object.keys(body.error.fields!)).toEqual(
      expect.arrayContaining(["filter.root.conditions.0.tagIds.0", "filter.root.conditions.1"]),
    );
    for (const filter of [bad, { version: 2, root: bad.root }, { version: 1 }, "x"]) {
      const saved = await withUser(a.owner.claims, (tx) =>
        saveSegment(tx, { workspaceId: a.id, name: "Bad", filter }),
      );
      expect("error" in saved && saved.error.code).toBe("invalid");
      expect("error" in saved && saved.error.field).toMatch(/^filter/);
    }
    const [{ n }] = await db.sql`select count(*)::int as n from public.segments where name = 'Bad'`;
    expect(n).toBe(0);
  });

  test("a member of another workspace neither reads a segment nor points a broadcast at it", async () => {
    const saved = await withUser(a.owner.claims, (tx) =>
      saveSegment(tx, { workspaceId: a.id, name: "Private", filter: parse(randomFilter(rng(2), [poolsA])) }),
    );
    if ("error" in saved) throw saved.error;
    const seen = await withUser(
      b.owner.claims,
      (tx) => tx`select id from public.segments where id = ${saved.data.id}`,
    );
    expect(seen).toHaveLength(0);
    const read = await withUser(b.owner.claims, (tx) =>
      getSegment(tx, { workspaceId: a.id, segmentId: saved.data.id }),
    );
    expect("error" in read && read.error.code).toBe("not_found");
    // members write no broadcast directly (docs/decisions.md, "The database is the boundary"); even
    // the service door's write is refused by the pair key when it names another workspace's segment
    const [broadcast] = await db.sql`select id from public.broadcasts where workspace_id = ${b.id} limit 1`;
    await expect(
      withService(
        (tx) => tx`update public.broadcasts set segment_id = ${saved.data.id} where id = ${broadcast.id}`,
      ),
    ).rejects.toThrow(/foreign key/);
  });

  test("the contact page lists exactly the segments the contact is in", async () => {
    const r = rng(SEED + 4);
    const filters = Array.from({ length: 5 }, () => parse(randomFilter(r, [poolsA])));
    const ids: string[] = [];
    for (const [i, filter] of filters.entries()) {
      const saved = await withUser(a.owner.claims, (tx) =>
        saveSegment(tx, { workspaceId: a.id, name: `S${i}`, filter }),
      );
      if ("error" in saved) throw saved.error;
      ids.push(saved.data.id);
    }
    for (const contact of contactsA.slice(0, 8)) {
      const inside = await withUser(a.owner.claims, (tx) =>
        contactSegments(tx, { workspaceId: a.id, contactId: contact.id }),
      );
      const expected = ids.filter((_, i) => oracleMatches(contact, filters[i].root));
      expect(
        inside
          .map((s) => s.id)
          .filter((id) => ids.includes(id))
          .sort(),
      ).toEqual(expected.sort());
    }
  });
});

describe("segments: a broadcast to a segment", () => {
  const runner =
    (claims: Claims): TxRunner =>
    (fn) =>
      withUser(claims, fn);

  test("'Gold members who bought in the last 90 days and are subscribed' reaches only eligible members", async () => {
    const [gold] =
      await db.sql`update public.tags set name = 'Gold' where id = ${poolsA.tags[0]} returning id`;
    const filter = parse({
      version: 1,
      root: {
        kind: "group",
        op: "and",
        conditions: [
          { kind: "tag", tagIds: [gold.id] },
          { kind: "purchased", window: { withinDays: 90 } },
          { kind: "consent", state: "subscribed" },
        ],
      },
    } as never);
    // one member of the segment an admin blocked (spec 8.3: in the segment, not eligible)
    const eligibleNow = (c: OracleContact) =>
      c.is_subscribed && !c.unsubscribed_at && c.suppressions.size === 0;
    const blocked = contactsA.filter((c) => oracleMatches(c, filter.root) && eligibleNow(c))[0];
    await db.sql`insert into public.contact_suppressions (contact_id, reason) values (${blocked.id}, 'manual')`;
    blocked.suppressions.add("manual");
    const saved = await withUser(a.owner.claims, (tx) =>
      saveSegment(tx, { workspaceId: a.id, name: "Gold buyers (90 days), subscribed", filter }),
    );
    if ("error" in saved) throw saved.error;
    const { id } = await withUser(a.owner.claims, (tx) =>
      createBroadcast(tx, {
        workspaceId: a.id,
        createdBy: a.owner.id,
        subject: "Gold news",
        body: "Hello!\n\nLeave: {{unsubscribe_url}}",
        audience: audienceSchema.parse({ segmentId: saved.data.id }),
      }),
    );
    for (let i = 0; i < 50; i++) {
      const step = await sendBroadcastBatch(runner(a.owner.claims), {
        workspaceId: a.id,
        broadcastId: id,
        batchSize: 10,
      });
      if ("error" in step) throw step.error;
      if (step.data.done) break;
    }
    const members = contactsA.filter((c) => oracleMatches(c, filter.root));
    const eligible = members.filter(
      (c) => c.is_subscribed && !c.unsubscribed_at && c.suppressions.size === 0,
    );
    expect(eligible.length).toBeGreaterThan(0);
    expect(members.length).toBeGreaterThan(eligible.length);
    const rows = await db.sql`select contact_id, status from public.email_sends where broadcast_id = ${id}`;
    const sent = rows.filter((x) => x.status !== "skipped").map((x) => x.contact_id as string);
    expect(sent.sort()).toEqual(eligible.map((c) => c.id).sort());
    // the others in the segment are skipped with a reason; no one outside it has a row
    expect(rows.map((x) => x.contact_id as string).sort()).toEqual(members.map((c) => c.id).sort());
  });

  test("a segment of another workspace cannot be chosen for a broadcast", async () => {
    const saved = await withUser(b.owner.claims, (tx) =>
      saveSegment(tx, { workspaceId: b.id, name: "Theirs", filter: parse(randomFilter(rng(3), [poolsB])) }),
    );
    if ("error" in saved) throw saved.error;
    const attempt = withUser(a.owner.claims, (tx) =>
      createBroadcast(tx, {
        workspaceId: a.id,
        createdBy: a.owner.id,
        subject: "x",
        body: "y",
        audience: audienceSchema.parse({ segmentId: saved.data.id }),
      }),
    );
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({ code: "not_found" });
  });
});
