/**
 * Contacts list (spec 4.15 getContacts): 1,000,000 contacts in one workspace plus 100,000 in another,
 * 200 tags, 3,000,000 contact_tags rows; getContacts as a signed-in member (RLS on,
 * through withUser), total count included. Prints p50/p95 for page 1 and page 2,000.
 */
import { getContacts } from "../../lib/contacts/get-contacts";
import type { GetContactsParams } from "../../lib/contacts/get-contacts-params";
import { withUser, type Claims } from "../../lib/db/doors";
import type { BenchModule } from "./index";
import { benchWorkspaces, loadListContacts, withoutIndexes } from "./lib/contacts-data";
import { benchDatabase, percentile, table } from "./lib/database";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 3;

async function measure(claims: Claims, params: GetContactsParams) {
  const times: number[] = [];
  let total = 0;
  let rows = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const started = performance.now();
    const result = await withUser(claims, (db) => getContacts(db, params));
    const elapsed = performance.now() - started;
    if ("error" in result) throw result.error;
    if (i >= WARMUP) times.push(elapsed);
    total = result.total;
    rows = result.data.length;
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), total, rows };
}

const bench: BenchModule = {
  title: "Contacts list: getContacts at 1,000,000 contacts (RLS on, total count included)",
  async run(baseUrl) {
    const db = await benchDatabase(baseUrl, "crm_bench_contacts");
    try {
      const sql = db.sql;
      const t = Date.now();
      if (!db.reused) {
        const { a, b } = await benchWorkspaces(sql);
        await withoutIndexes(sql, ["contacts", "contact_tags", "contact_suppressions"], async (tx) => {
          await loadListContacts(tx, a, b);
        });
        // the bulk load ran without triggers: count what they would have kept
        await sql`insert into contact_counts (workspace_id, source, n)
                  select workspace_id, source, count(*) from contacts group by 1, 2
                  on conflict (workspace_id, source, shard) do update set n = excluded.n`;
        await sql`vacuum analyze`;
      }
      const [a] = await sql`select id from workspaces where name = 'Bench A'`;
      const [user] = await sql`select id from auth.users where email = 'bench@example.com'`;
      const [counts] = await sql`select (select count(*) from contacts)::int as contacts,
        (select count(*) from contact_tags)::int as contact_tags`;
      console.log(
        `${db.reused ? "reused" : "loaded"} ${counts.contacts} contacts, ${counts.contact_tags} contact_tags ` +
          `in ${((Date.now() - t) / 1000).toFixed(0)} s`,
      );

      const tags = (await sql`select id from tags where workspace_id = ${a.id} order by name`).map(
        (r) => r.id as string,
      );
      const claims: Claims = { sub: user.id, role: "authenticated", email: "bench@example.com" };
      const scenarios: [string, Partial<GetContactsParams>][] = [
        ["no filter", {}],
        ["search 'smith'", { search: "smith" }],
        ["tags any (3)", { tagIds: tags.slice(0, 3), tagMode: "any" }],
        ["tags all (2)", { tagIds: [tags[10], tags[77]], tagMode: "all" }],
        ["exclude (1)", { excludeTagIds: [tags[5]] }],
        ["source 'form'", { source: "form" }],
        ["sort name asc", { sortBy: "name", sortDir: "asc" }],
      ];
      const rows: (string | number)[][] = [];
      for (const [label, params] of scenarios) {
        const first = await measure(claims, { workspaceId: a.id, ...params, page: 1 });
        const deep = await measure(claims, { workspaceId: a.id, ...params, page: 2000 });
        rows.push([
          label,
          first.total,
          first.p50.toFixed(1),
          first.p95.toFixed(1),
          deep.rows,
          deep.p50.toFixed(1),
          deep.p95.toFixed(1),
        ]);
      }
      console.log(
        `(${RUNS} runs each after ${WARMUP} warm-ups; targets: p95 <= 50 ms page 1, <= 100 ms page 2,000)`,
      );
      table(
        ["scenario", "matches", "p1 p50 ms", "p1 p95 ms", "p2000 rows", "p2000 p50 ms", "p2000 p95 ms"],
        rows,
      );
    } finally {
      await db.drop();
    }
  },
};

export default bench;
