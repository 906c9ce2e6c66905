import { describe, expect, test } from "vitest";
import { withService, withUser } from "@/lib/db/doors";
import { customFieldFilterSql, listCustomFields } from "@/lib/contacts/custom-fields";
import type { CustomFieldListFilter } from "@/lib/contacts/custom-fields/list-filter";
import { getContacts } from "@/lib/contacts/get-contacts";
import { setupTestDatabase } from "../helpers/db";
import { expectedValues, typedValues } from "../helpers/custom-field-values";
import { addMember, createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";
import { attempt, createTenants } from "../helpers/rls";

// docs/decisions.md, "Custom fields": contact_field_values is an index of contacts.custom_fields
// kept by the database, which the list and segment filters read.
const db = setupTestDatabase();

async function workspaceWithFields(): Promise<TestWorkspace> {
  const ws = await createWorkspace(db.sql);
  await db.sql`insert into custom_fields (workspace_id, key, label, field_type, options) values
    (${ws.id}, 'tier', 'Tier', 'select', '{gold,silver}'),
    (${ws.id}, 'score', 'Score', 'number', '{}'),
    (${ws.id}, 'joined_on', 'Joined on', 'date', '{}'),
    (${ws.id}, 'vip', 'VIP', 'boolean', '{}'),
    (${ws.id}, 'nickname', 'Nickname', 'text', '{}'),
    (${ws.id}, 'interests', 'Interests', 'multi_select', '{art,music,food}')`;
  return ws;
}

/** The contact's typed rows, and the same computed from its object: equal when the index is right. */
const both = async (contactId: string) => ({
  typed: await typedValues(db.sql, contactId),
  expected: await expectedValues(db.sql, contactId),
});

describe("contact_field_values follows contacts.custom_fields, whoever writes", () => {
  test("a member's insert, update, clearing and delete through RLS leave the typed rows equal to the object", async () => {
    const ws = await workspaceWithFields();
    const member = await addMember(db.sql, ws.id, "member");
    const values = {
      tier: "gold",
      score: 12.5,
      joined_on: "2025-02-03",
      vip: false,
      nickname: "Ada",
      interests: ["art", "food"],
    };
    const [c] = await withUser(
      member.claims,
      (tx) => tx`insert into contacts (workspace_id, email, custom_fields)
                 values (${ws.id}, 'ada@example.test', ${tx.json(values)}) returning id`,
    );
    const inserted = await both(c.id);
    expect(inserted.typed).toEqual([
      "interests=art",
      "interests=food",
      "joined_on=2025-02-03",
      "nickname=Ada",
      "score=12.5",
      "tier=gold",
      "vip=false",
    ]);
    expect(inserted.typed).toEqual(inserted.expected);

    await withUser(
      member.claims,
      (tx) => tx`update contacts set custom_fields = custom_fields - 'tier' - 'vip'
                   || '{"score": 7, "interests": ["music"]}'::jsonb where id = ${c.id}`,
    );
    const updated = await both(c.id);
    expect(updated.typed).toEqual(["interests=music", "joined_on=2025-02-03", "nickname=Ada", "score=7"]);
    expect(updated.typed).toEqual(updated.expected);

    // an update of another column leaves the rows as they are
    await withUser(member.claims, (tx) => tx`update contacts set first_name = 'Ada' where id = ${c.id}`);
    expect(await typedValues(db.sql, c.id)).toEqual(updated.typed);

    await withUser(member.claims, (tx) => tx`update contacts set custom_fields = '{}' where id = ${c.id}`);
    expect(await typedValues(db.sql, c.id)).toEqual([]);

    await withUser(
      member.claims,
      (tx) => tx`update contacts set custom_fields = '{"tier": "silver"}' where id = ${c.id}`,
    );
    expect(await typedValues(db.sql, c.id)).toEqual(["tier=silver"]);
    await withUser(member.claims, (tx) => tx`delete from contacts where id = ${c.id}`);
    const [{ n }] =
      await db.sql`select count(*)::int as n from contact_field_values where contact_id = ${c.id}`;
    expect(n).toBe(0);
  });

  test("deleting a definition removes its typed rows with its values, and leaves the other fields' rows", async () => {
    const ws = await workspaceWithFields();
    const c = await createContact(db.sql, ws.id, {
      custom_fields: db.sql.json({ tier: "gold", interests: ["art", "music"] }),
    });
    await withUser(
      ws.owner.claims,
      (tx) => tx`delete from custom_fields where workspace_id = ${ws.id} and key = 'interests'`,
    );
    expect(await both(c.id)).toEqual({ typed: ["tier=gold"], expected: ["tier=gold"] });
  });

  test("the service's bulk write (as an import makes) keeps every contact's rows equal to its object", async () => {
    const ws = await workspaceWithFields();
    const ids = await withService(
      (tx) => tx<{ id: string }[]>`
        insert into contacts (workspace_id, email, custom_fields)
        select ${ws.id}, 'bulk' || i || '@example.test',
               jsonb_build_object('score', i, 'tier', case when i % 2 = 0 then 'gold' else 'silver' end)
        from generate_series(1, 20) i returning id`,
    );
    await withService(
      (tx) => tx`update contacts set custom_fields = custom_fields || '{"interests": ["food"]}'
                 where workspace_id = ${ws.id} and (custom_fields ->> 'score')::int % 3 = 0`,
    );
    for (const { id } of ids) {
      const { typed, expected } = await both(id);
      expect(typed).toEqual(expected);
    }
  });

  test("an import's upsert (inserting some contacts, updating others) rewrites only the contacts whose object changed", async () => {
    const ws = await workspaceWithFields();
    const kept = await createContact(db.sql, ws.id, {
      email: "kept@example.test",
      custom_fields: db.sql.json({ score: 1 }),
    });
    const changed = await createContact(db.sql, ws.id, {
      email: "changed@example.test",
      custom_fields: db.sql.json({ score: 2, tier: "gold" }),
    });
    // the transaction that wrote a row: a rewritten row has a new one
    const writers = async () =>
      (
        await db.sql<{ contact_id: string; xmin: string }[]>`
        select contact_id, xmin::text from contact_field_values where workspace_id = ${ws.id}`
      )
        .map(
          (r) =>
            `${r.contact_id === kept.id ? "kept" : r.contact_id === changed.id ? "changed" : "new"}:${r.xmin}`,
        )
        .sort();
    const before = await writers();
    await withService(
      (tx) => tx`insert into contacts as c (workspace_id, email, first_name, custom_fields)
                 values (${ws.id}, 'kept@example.test', 'Kay', '{"score": 1}'),
                        (${ws.id}, 'changed@example.test', null, '{"score": 3}'),
                        (${ws.id}, 'new@example.test', null, '{"vip": true, "interests": ["music"]}')
                 on conflict (workspace_id, email) do update
                   set first_name = coalesce(excluded.first_name, c.first_name), custom_fields = excluded.custom_fields`,
    );
    const after = await writers();
    const of = (list: string[], who: string) => list.filter((w) => w.startsWith(`${who}:`));
    expect(of(after, "kept")).toEqual(of(before, "kept"));
    expect(of(after, "changed")).toHaveLength(1);
    expect(of(before, "changed")).not.toContain(of(after, "changed")[0]);
    expect(of(after, "new")).toHaveLength(2);
    const [fresh] = await db.sql<
      { id: string }[]
    >`select id from contacts where workspace_id = ${ws.id} and email = 'new@example.test'`;
    for (const id of [kept.id, changed.id, fresh.id]) {
      const { typed, expected } = await both(id);
      expect(typed).toEqual(expected);
    }
  });
});

describe("spec 4.15 getContacts: the total of a list filtered on custom fields, counted from the typed values", () => {
  test("the total equals the matching contacts counted one by one, for set, not set, ranges, any-of and their combinations", async () => {
    const ws = await workspaceWithFields();
    const interests = [["art"], ["art", "music"], ["food"], [], ["music", "food"]];
    const people = Array.from({ length: 15 }, (_, i) => ({
      ...(i % 3 === 0 ? {} : { score: i * 1.5 }),
      ...(i % 2 === 0 ? { tier: "gold" } : i % 5 === 0 ? {} : { tier: "silver" }),
      ...(interests[i % 5].length ? { interests: interests[i % 5] } : {}),
      ...(i % 4 === 0 ? { joined_on: `2025-0${1 + (i % 9)}-15` } : {}),
    }));
    for (const values of people) await createContact(db.sql, ws.id, { custom_fields: db.sql.json(values) });
    await createContact(db.sql, ws.id);
    const cases: CustomFieldListFilter[][] = [
      [{ key: "score", op: "set" }],
      [{ key: "score", op: "not_set" }],
      [
        { key: "score", op: "not_set" },
        { key: "tier", op: "not_set" },
      ],
      [
        { key: "tier", op: "eq", values: ["gold"] },
        { key: "score", op: "not_set" },
      ],
      [{ key: "interests", op: "any", values: ["art", "music"] }],
      [
        { key: "interests", op: "any", values: ["art", "food"] },
        { key: "score", op: "range", min: "3", max: "15" },
      ],
      [
        { key: "joined_on", op: "range", min: "2025-01-01", max: "2025-06-30" },
        { key: "interests", op: "not_set" },
      ],
    ];
    const everyone = await db.sql<{ id: string; custom_fields: Record<string, unknown> }[]>`
      select id, custom_fields from contacts where workspace_id = ${ws.id} order by created_at desc, id desc`;
    const passes = (v: Record<string, unknown>, f: CustomFieldListFilter) => {
      const x = v[f.key];
      if (f.op === "set") return x !== undefined;
      if (f.op === "not_set") return x === undefined;
      if (f.op === "eq") return x === f.values![0];
      if (f.op === "any") return Array.isArray(x) && x.some((o) => f.values!.includes(o as string));
      if (x === undefined) return false;
      const n = typeof x === "number" ? x : String(x);
      const bound = (b: string) => (typeof x === "number" ? Number(b) : b);
      return (f.min === undefined || n >= bound(f.min)) && (f.max === undefined || n <= bound(f.max));
    };
    // pages of 2 rows: dense matches are found by walking the list with a probe per row, sparse
    // ones by reading the matches (getContacts' pageIds); both must give the same page
    for (const filters of cases) {
      const page = await withUser(ws.owner.claims, (tx) =>
        getContacts(tx, { workspaceId: ws.id, page: 2, pageSize: 2, customFields: filters }),
      );
      const matching = everyone.filter((c) => filters.every((f) => passes(c.custom_fields, f)));
      expect({ filters, total: "total" in page ? page.total : page }).toEqual({
        filters,
        total: matching.length,
      });
      expect({ filters, ids: "data" in page && page.data.map((r) => r.id) }).toEqual({
        filters,
        ids: matching.slice(2, 4).map((c) => c.id),
      });
    }
  });
});

describe("contact_field_values: the database boundary", () => {
  test("a member cannot insert, update or delete typed rows with their JWT role, and the rows are unchanged", async () => {
    const ws = await workspaceWithFields();
    const member = await addMember(db.sql, ws.id, "member");
    const c = await createContact(db.sql, ws.id, { custom_fields: db.sql.json({ tier: "gold" }) });
    const [tier] = await db.sql`select id from custom_fields where workspace_id = ${ws.id} and key = 'tier'`;
    const writes = {
      insert: await attempt(() =>
        withUser(
          member.claims,
          (tx) => tx`insert into contact_field_values (workspace_id, contact_id, field_id, value_text)
                     values (${ws.id}, ${c.id}, ${tier.id}, 'silver')`,
        ),
      ),
      update: await attempt(() =>
        withUser(member.claims, (tx) => tx`update contact_field_values set value_text = 'silver'`),
      ),
      delete: await attempt(() => withUser(member.claims, (tx) => tx`delete from contact_field_values`)),
    };
    expect(writes).toEqual({
      insert: { ok: false, code: "42501" },
      update: { ok: false, code: "42501" },
      delete: { ok: false, code: "42501" },
    });
    expect(await typedValues(db.sql, c.id)).toEqual(["tier=gold"]);
    // reading is allowed: the filters run as the member
    const seen = await withUser(
      member.claims,
      (tx) => tx`select value_text from contact_field_values where contact_id = ${c.id}`,
    );
    expect(seen.map((r) => r.value_text)).toEqual(["gold"]);
  });

  test("5.4: a member of B reads none of A's typed rows, and B's filter on A's field matches none of A's contacts", async () => {
    const t = await createTenants(db.sql);
    await db.sql`insert into custom_fields (workspace_id, key, label, field_type, options)
                 values (${t.a.id}, 'tier', 'Tier', 'select', '{gold,silver}')`;
    const c = await createContact(db.sql, t.a.id, { custom_fields: db.sql.json({ tier: "gold" }) });
    const [field] = await withUser(t.a.owner.claims, (tx) => listCustomFields(tx, t.a.id));
    const outsider = t.b.owner;
    const read = await withUser(outsider.claims, (tx) => tx`select * from contact_field_values`);
    expect(read).toEqual([]);
    const matched = await withUser(
      outsider.claims,
      (tx) =>
        tx`select c.id from contacts c where ${customFieldFilterSql(tx, field, { op: "eq", value: "gold" })}`,
    );
    expect(matched).toEqual([]);
    // A's own member sees it through the same filter
    const own = await withUser(
      t.member.claims,
      (tx) =>
        tx`select c.id from contacts c where ${customFieldFilterSql(tx, field, { op: "eq", value: "gold" })}`,
    );
    expect(own.map((r) => r.id)).toEqual([c.id]);
  });

  test.each([
    ["contact_id", "contacts"],
    ["field_id", "custom_fields"],
  ])(
    "5.4 contact_field_values.%s cannot point at another workspace's %s, even written directly as superuser",
    async (column) => {
      const t = await createTenants(db.sql);
      const define = (ws: string) =>
        db.sql`insert into custom_fields (workspace_id, key, label, field_type)
               values (${ws}, 'nickname', 'Nickname', 'text') returning id`;
      const [fieldA] = await define(t.a.id);
      const [fieldB] = await define(t.b.id);
      const contactA = await createContact(db.sql, t.a.id);
      const contactB = await createContact(db.sql, t.b.id);
      const row = {
        workspace_id: t.b.id,
        contact_id: column === "contact_id" ? contactA.id : contactB.id,
        field_id: column === "field_id" ? fieldA.id : fieldB.id,
        value_text: "x",
      };
      const refused = await attempt(() => db.sql`insert into contact_field_values ${db.sql(row)}`);
      expect(refused).toEqual({ ok: false, code: "23503" });
      const [{ n }] =
        await db.sql`select count(*)::int as n from contact_field_values where workspace_id = ${t.b.id}`;
      expect(n).toBe(0);
    },
  );
});
