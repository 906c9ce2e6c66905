/**
 * Custom fields (docs/decisions.md, "Custom fields"): values in contacts.custom_fields (jsonb,
 * checked by a trigger, a partial GIN index), indexed by contact_field_values (typed rows kept by
 * a trigger, a b-tree per value type) which the filters read; at 1,000,000 contacts in one
 * workspace (BENCH_CONTACTS to change).
 * - Reads: the first page of the contacts list (25 rows and the exact total) filtered on one
 *   custom field, as a signed-in member (RLS on): through getContacts (the product's path: the
 *   total from the typed index alone), and as three plain statements (count, page ids, page rows)
 *   with the typed condition (customFieldFilterSql, the total counted over contacts) and with the
 *   former jsonb condition (`custom_fields @> ...`, kept here as the baseline). Ratios are to the
 *   unfiltered list through getContacts.
 * - Writes: setting four fields on 10,000 contacts in one statement (both triggers and both
 *   indexes), against the floor of setting first_name on the same contacts.
 */
import type postgres from "postgres";
import { getContacts } from "../../lib/contacts/get-contacts";
import type { CustomFieldListFilter } from "../../lib/contacts/custom-fields/list-filter";
import { customFieldFilterSql, type CustomFieldFilter } from "../../lib/contacts/custom-fields/filter-sql";
import { listCustomFields } from "../../lib/contacts/custom-fields/list-custom-fields";
import type { CustomField } from "../../lib/contacts/custom-fields/types";
import { withUser, type Claims, type Db } from "../../lib/db/doors";
import type { BenchModule } from "./index";
import { benchWorkspaces, loadContacts, withoutIndexes } from "./lib/contacts-data";
import { benchDatabase, percentile, table } from "./lib/database";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const WRITE_ROWS = 10_000;
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
type Fragment = postgres.PendingQuery<postgres.Row[]>;

async function timed(fn: () => Promise<unknown>, runs = RUNS): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + runs; i++) {
    const started = performance.now();
    await fn();
    if (i >= WARMUP) times.push(performance.now() - started);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** count, page ids, page rows: the list's three statements for a condition on `c`. */
async function listBy(db: Db, ws: string, condition: Fragment): Promise<number> {
  const [{ n }] = await db<{ n: number }[]>`
    select count(*)::int as n from public.contacts c where c.workspace_id = ${ws} and ${condition}`;
  const ids = await db<{ id: string }[]>`
    select c.id from public.contacts c where c.workspace_id = ${ws} and ${condition}
    order by c.created_at desc, c.id desc limit 25`;
  await db`select * from public.contacts where id = any(${ids.map((r) => r.id)}::uuid[])`;
  return n;
}

async function load(sql: postgres.Sql, ws: string, other: string): Promise<void> {
  await sql`
    insert into custom_fields (workspace_id, key, label, field_type, options)
    select w, f.key, f.label, f.type, f.options
    from unnest(array[${ws}::uuid, ${other}::uuid]) w,
    (values ('tier', 'Tier', 'select', '{bronze,silver,gold,platinum,diamond}'::text[]),
            ('score', 'Score', 'number', '{}'), ('joined_on', 'Joined on', 'date', '{}'),
            ('interests', 'Interests', 'multi_select', '{art,music,food,travel,sport,books,film,tech}')) f(key, label, type, options)`;
  const tables = ["contacts", "contact_tags", "contact_suppressions", "contact_field_values"];
  await withoutIndexes(sql, tables, async (tx) => {
    await loadContacts(tx, {
      workspaceId: ws,
      count: CONTACTS,
      tagCount: 10,
      tagsEach: 1,
      emailPrefix: "a",
    });
    await loadContacts(tx, {
      workspaceId: other,
      count: WRITE_ROWS,
      tagCount: 10,
      tagsEach: 1,
      emailPrefix: "b",
    });
    await tx`
      update contacts c set custom_fields = jsonb_strip_nulls(jsonb_build_object(
        'tier', (array['bronze','silver','gold','platinum','diamond'])[1 + h % 5],
        'score', h % 1000,
        'joined_on', case when h % 2 = 0 then to_char(date '2020-01-01' + (h % 2000), 'YYYY-MM-DD') end,
        'interests', case when h % 3 > 0 then jsonb_build_array(
          (array['art','music','food','travel','sport','books','film','tech'])[1 + h % 8],
          (array['art','music','food','travel','sport','books','film','tech'])[1 + (h / 8 + 1 + h % 7) % 8]) end))
      from (select id, abs(hashtext(id::text)) as h from contacts where workspace_id = ${ws}) x
      where c.id = x.id`;
    // triggers are off during the load: the typed rows as the migration's backfill writes them
    await tx`
      insert into contact_field_values (workspace_id, contact_id, field_id, ord, value_text, value_num, value_date, value_bool)
      select r.* from contacts c
      cross join lateral contact_field_value_rows(c.workspace_id, c.id, c.custom_fields) r
      where c.custom_fields <> '{}'::jsonb`;
  });
  await sql`insert into contact_counts (workspace_id, source, n)
            select workspace_id, source, count(*) from contacts group by 1, 2
            on conflict (workspace_id, source, shard) do update set n = excluded.n`;
  await sql`vacuum analyze`;
}

interface Scenario {
  label: string;
  key: string;
  list: CustomFieldListFilter;
  filter: CustomFieldFilter;
  /** the former jsonb condition, as customFieldFilterSql wrote it before the typed table */
  jsonb: (db: Db) => Fragment;
}

const holds = (db: Db, value: object) =>
  db`(c.custom_fields <> '{}'::jsonb and c.custom_fields @> ${db.json(value as never)})`;
const jsonbRange = (db: Db, key: string, min: string, max: string, number: boolean) => {
  const v = number
    ? db`(case when jsonb_typeof(c.custom_fields -> ${key}) = 'number' then (c.custom_fields ->> ${key})::numeric end)`
    : db`((c.custom_fields ->> ${key}) collate "C")`;
  const cast = (x: string) => (number ? db`${x}::numeric` : db`${x}`);
  return db`(c.custom_fields <> '{}'::jsonb and ${v} >= ${cast(min)} and ${v} <= ${cast(max)})`;
};

const SCENARIOS: Scenario[] = [
  {
    label: "select = gold (20%)",
    key: "tier",
    list: { key: "tier", op: "eq", values: ["gold"] },
    filter: { op: "eq", value: "gold" },
    jsonb: (db) => holds(db, { tier: "gold" }),
  },
  {
    label: "number = 500 (0.1%)",
    key: "score",
    list: { key: "score", op: "eq", values: ["500"] },
    filter: { op: "eq", value: 500 },
    jsonb: (db) => holds(db, { score: 500 }),
  },
  {
    label: "number 100..149 (5%)",
    key: "score",
    list: { key: "score", op: "range", min: "100", max: "149" },
    filter: { op: "range", min: 100, max: 149 },
    jsonb: (db) => jsonbRange(db, "score", "100", "149", true),
  },
  {
    label: "number 0..0 (0.1%, range)",
    key: "score",
    list: { key: "score", op: "range", min: "0", max: "0" },
    filter: { op: "range", min: 0, max: 0 },
    jsonb: (db) => jsonbRange(db, "score", "0", "0", true),
  },
  {
    label: "date in one month (0.8%)",
    key: "joined_on",
    list: { key: "joined_on", op: "range", min: "2021-03-01", max: "2021-03-31" },
    filter: { op: "range", min: "2021-03-01", max: "2021-03-31" },
    jsonb: (db) => jsonbRange(db, "joined_on", "2021-03-01", "2021-03-31", false),
  },
  {
    label: "multi any of art, film",
    key: "interests",
    list: { key: "interests", op: "any", values: ["art", "film"] },
    filter: { op: "any", values: ["art", "film"] },
    jsonb: (db) => db`(${holds(db, { interests: ["art"] })} or ${holds(db, { interests: ["film"] })})`,
  },
  {
    label: "date is set (50%)",
    key: "joined_on",
    list: { key: "joined_on", op: "set" },
    filter: { op: "set" },
    jsonb: (db) => db`(c.custom_fields <> '{}'::jsonb and c.custom_fields ? 'joined_on')`,
  },
  {
    label: "date not set (50%)",
    key: "joined_on",
    list: { key: "joined_on", op: "not_set" },
    filter: { op: "not_set" },
    jsonb: (db) => db`not (c.custom_fields ? 'joined_on')`,
  },
];

async function reads(claims: Claims, ws: string, fields: CustomField[]) {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const floor = await timed(() => withUser(claims, (db) => getContacts(db, { workspaceId: ws, page: 1 })));
  const rows: (string | number)[][] = [["no filter (floor)", "", floor.p95.toFixed(1), "1.00", "", ""]];
  for (const s of SCENARIOS) {
    const field = byKey.get(s.key)!;
    let total = 0;
    const product = await timed(() =>
      withUser(claims, async (db) => {
        const page = await getContacts(db, { workspaceId: ws, page: 1, customFields: [s.list] });
        if ("error" in page) throw page.error;
        total = page.total;
      }),
    );
    const typed = await timed(() =>
      withUser(claims, (db) => listBy(db, ws, customFieldFilterSql(db, field, s.filter))),
    );
    const jsonb = await timed(() => withUser(claims, (db) => listBy(db, ws, s.jsonb(db))));
    rows.push([
      s.label,
      total,
      product.p95.toFixed(1),
      (product.p95 / floor.p95).toFixed(2),
      typed.p95.toFixed(1),
      jsonb.p95.toFixed(1),
    ]);
  }
  console.log(`(p95 of ${RUNS} runs after ${WARMUP} warm-ups, page 1 with the exact total, as a member)`);
  table(
    [
      "filter",
      "matches",
      "getContacts p95 ms",
      "x floor",
      "typed 3-stmt p95 ms",
      "former jsonb 3-stmt p95 ms",
    ],
    rows,
  );
}

/** Runs `fn` in a transaction that is rolled back, so every run writes the same rows. */
async function rolledBack(sql: postgres.Sql, fn: (tx: postgres.TransactionSql) => Promise<unknown>) {
  await sql
    .begin(async (tx) => {
      await fn(tx);
      throw new Error("rollback");
    })
    .catch((error: Error) => {
      if (error.message !== "rollback") throw error;
    });
}

async function writes(sql: postgres.Sql, other: string) {
  const runs = Number(process.env.BENCH_WRITE_RUNS ?? 10);
  const floor = await timed(
    () => rolledBack(sql, (tx) => tx`update contacts set first_name = 'Ada' where workspace_id = ${other}`),
    runs,
  );
  const setFields = (tx: postgres.TransactionSql) =>
    tx`update contacts set custom_fields = jsonb_build_object('tier', 'gold', 'score', 42,
       'joined_on', '2024-05-01', 'interests', jsonb_build_array('art', 'tech')) where workspace_id = ${other}`;
  const both = await timed(() => rolledBack(sql, setFields), runs);
  // the same without the typed rows: the AFTER UPDATE trigger off inside the rolled-back transaction
  // (it keeps the typed rows beside the counts, stats and webhooks, which an update of custom_fields
  // alone leaves unchanged: migration …_contacts_one_trigger_per_operation.sql)
  const jsonbOnly = await timed(
    () =>
      rolledBack(sql, async (tx) => {
        await tx`alter table contacts disable trigger contacts_after_update`;
        await setFields(tx);
      }),
    runs,
  );
  console.log(`(four fields on ${WRITE_ROWS} contacts in one statement, p50 of ${runs} rolled-back runs)`);
  table(
    ["write", "p50 ms", "x floor"],
    [
      ["first_name only (floor)", floor.p50.toFixed(0), "1.00"],
      [
        "jsonb only (check, GIN; AFTER trigger off)",
        jsonbOnly.p50.toFixed(0),
        (jsonbOnly.p50 / floor.p50).toFixed(2),
      ],
      [
        "jsonb (check, GIN) + typed rows (trigger, b-trees)",
        both.p50.toFixed(0),
        (both.p50 / floor.p50).toFixed(2),
      ],
    ],
  );
}

const bench: BenchModule = {
  title:
    "Custom fields: filters on the typed values table vs the former jsonb condition at 1,000,000 contacts",
  async run(baseUrl) {
    const db = await benchDatabase(baseUrl, "crm_bench_custom_fields");
    try {
      const sql = db.sql;
      const t = Date.now();
      if (!db.reused) {
        const { a, b } = await benchWorkspaces(sql);
        await load(sql, a, b);
      }
      const [a] = await sql`select id from workspaces where name = 'Bench A'`;
      const [b] = await sql`select id from workspaces where name = 'Bench B'`;
      const [user] = await sql`select id from auth.users where email = 'bench@example.com'`;
      const [sizes] = await sql`select pg_size_pretty(pg_relation_size('contacts_custom_fields_idx')) as gin,
        (select count(*) from contact_field_values)::int as typed_rows,
        pg_size_pretty(pg_total_relation_size('contact_field_values')) as typed_size`;
      console.log(
        `${db.reused ? "reused" : "loaded"} in ${((Date.now() - t) / 1000).toFixed(0)} s; GIN index ${sizes.gin}; ` +
          `typed table ${sizes.typed_rows} rows, ${sizes.typed_size} with its indexes`,
      );
      const claims: Claims = { sub: user.id, role: "authenticated", email: "bench@example.com" };
      const fields = await withUser(claims, (tx) => listCustomFields(tx, a.id));
      await reads(claims, a.id, fields);
      await writes(sql, b.id);
    } finally {
      await db.drop();
    }
  },
};

export default bench;
