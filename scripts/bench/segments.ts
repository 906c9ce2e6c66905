/**
 * Segments (docs/decisions.md, "Segments"): the live count of a saved segment at 1,000,000
 * contacts in one workspace (plus 100,000 in another), 200 tags, 3,000,000 contact_tags rows,
 * 400,000 purchases, 300,000 form submissions and 300,000 event registrations (one in three checked
 * in); countSegment as a signed-in member (RLS on, through withUser). Prints p50/p95 per filter and
 * whether its plan reads contacts sequentially. BENCH_SEGMENTS_SCALE=0.05 loads 5% of every table.
 */
import { withUser, type Claims } from "../../lib/db/doors";
import { segmentCondition } from "../../lib/segments/compile";
import { countSegment, segmentCountSql } from "../../lib/segments/count-segment";
import { segmentFilterSchema, type SegmentFilter } from "../../lib/segments/filter";
import type { BenchModule } from "./index";
import { benchWorkspaces, loadListContacts, withoutIndexes } from "./lib/contacts-data";
import { benchDatabase, percentile, table } from "./lib/database";

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = 3;
const SCALE = Number(process.env.BENCH_SEGMENTS_SCALE ?? 1);
/** contacts in A, and a row count of the full-size load at this scale */
const N = Math.round(1_000_000 * SCALE);
const rows = (n: number) => Math.max(1, Math.round(n * SCALE));

async function load(sql: Awaited<ReturnType<typeof benchDatabase>>["sql"]) {
  const { a, b } = await benchWorkspaces(sql);
  const tables = [
    "contacts",
    "contact_tags",
    "contact_suppressions",
    "transactions",
    "form_submissions",
    "event_registrations",
  ];
  await withoutIndexes(sql, tables, async (tx) => {
    await loadListContacts(tx, a, b, SCALE);
    await tx`insert into products (workspace_id, name) select ${a}, 'Product ' || i from generate_series(1, 5) i`;
    await tx`insert into forms (workspace_id, name) select ${a}, 'Form ' || i from generate_series(1, 10) i`;
    // 400,000 purchases over two years by random contacts, one product in five each
    await tx`
      insert into transactions (workspace_id, contact_id, product_id, amount_paid, status, transaction_date)
      select ${a}, c.id, p.id, (10 + (i % 190))::numeric, case when i % 20 = 0 then 'refunded' else 'succeeded' end,
             now() - (i % 730) * interval '1 day' - (i % 86400) * interval '1 second'
      from generate_series(1, ${rows(400_000)}) i
      join lateral (select id from contacts where workspace_id = ${a} and email = 'a' || (1 + (i::bigint * 7919) % ${N}) || '@example.com') c on true
      join lateral (select id from products where workspace_id = ${a} order by name offset (i % 5) limit 1) p on true`;
    await tx`update transactions set amount_refunded = amount_paid where status = 'refunded'`;
    await tx`
      insert into form_submissions (workspace_id, form_id, contact_id, payload, created_at)
      select ${a}, f.id, c.id, '{}', now() - (i % 365) * interval '1 day'
      from generate_series(1, ${rows(300_000)}) i
      join lateral (select id from contacts where workspace_id = ${a} and email = 'a' || (1 + (i::bigint * 104729) % ${N}) || '@example.com') c on true
      join lateral (select id from forms where workspace_id = ${a} order by name offset (i % 10) limit 1) f on true`;
    // attendance (docs/decisions.md, "Segments"): 20 events, distinct contacts, one in three checked in
    await tx`insert into events (workspace_id, name) select ${a}, 'Event ' || lpad(i::text, 2, '0') from generate_series(1, 20) i`;
    await tx`
      insert into event_registrations (workspace_id, event_id, contact_id, status, created_at, checked_in_at)
      select ${a}, e.id, c.id, case when i % 10 = 0 then 'cancelled' else 'registered' end,
             now() - (i % 365) * interval '1 day', case when i % 3 = 0 then now() - (i % 365) * interval '1 day' end
      from generate_series(1, ${rows(300_000)}) i
      join lateral (select id from contacts where workspace_id = ${a} and email = 'a' || (1 + (i::bigint * 15485863) % ${N}) || '@example.com') c on true
      join lateral (select id from events where workspace_id = ${a} order by name offset (i % 20) limit 1) e on true`;
  });
  await sql`vacuum analyze`;
}

const bench: BenchModule = {
  title: "Segments: live count at 1,000,000 contacts (RLS on)",
  async run(baseUrl) {
    const db = await benchDatabase(baseUrl, "crm_bench_segments");
    try {
      const sql = db.sql;
      const t = Date.now();
      if (!db.reused) await load(sql);
      const [a] = await sql`select id from workspaces where name = 'Bench A'`;
      const [user] = await sql`select id from auth.users where email = 'bench@example.com'`;
      console.log(`${db.reused ? "reused" : "loaded"} in ${((Date.now() - t) / 1000).toFixed(0)} s`);
      const [gold] = await sql`select id from tags where workspace_id = ${a.id} order by name limit 1`;
      const tags = (
        await sql`select id from tags where workspace_id = ${a.id} order by name limit 3 offset 10`
      ).map((r) => r.id);
      const [form] = await sql`select id from forms where workspace_id = ${a.id} order by name limit 1`;
      const [product] = await sql`select id from products where workspace_id = ${a.id} order by name limit 1`;
      const [event] = await sql`select id from events where workspace_id = ${a.id} order by name limit 1`;
      const f = (conditions: unknown[], op = "and"): SegmentFilter =>
        segmentFilterSchema.parse({ version: 1, root: { kind: "group", op, conditions } });
      const scenarios: [string, SegmentFilter][] = [
        [
          "Gold, bought in 90 days, subscribed",
          f([
            { kind: "tag", tagIds: [gold.id] },
            { kind: "purchased", window: { withinDays: 90 } },
            { kind: "consent", state: "subscribed" },
          ]),
        ],
        [
          "form in 30 days, not unsubscribed",
          f([
            { kind: "form_submitted", formId: form.id, window: { withinDays: 30 } },
            { kind: "consent", not: true, state: "unsubscribed" },
          ]),
        ],
        [
          "product >= $150 in a year, none of 3 tags",
          f([
            { kind: "purchased", productId: product.id, minAmount: 150, window: { withinDays: 365 } },
            { kind: "tag", not: true, tagIds: tags },
          ]),
        ],
        ["subscribed (everyone's consent)", f([{ kind: "consent", state: "subscribed" }])],
        [
          "attended one event, subscribed",
          f([
            { kind: "event_attended", eventId: event.id },
            { kind: "consent", state: "subscribed" },
          ]),
        ],
        [
          "attended any event, not Gold",
          f([{ kind: "event_attended" }, { kind: "tag", not: true, tagIds: [gold.id] }]),
        ],
      ];
      const claims: Claims = { sub: user.id, role: "authenticated", email: "bench@example.com" };
      const rows: (string | number)[][] = [];
      for (const [label, filter] of scenarios) {
        const timed = async (count: () => Promise<number>) => {
          const times: number[] = [];
          let n = 0;
          for (let i = 0; i < WARMUP + RUNS; i++) {
            const started = performance.now();
            n = await count();
            if (i >= WARMUP) times.push(performance.now() - started);
          }
          return { n, times };
        };
        // alternately the product's count and the floor: the one statement over the contacts
        // (countSegment before it could start from a purchase or form condition's rows)
        const { n, times } = await timed(() =>
          withUser(claims, (tx) => countSegment(tx, { workspaceId: a.id, filter })),
        );
        const whole = await timed(() =>
          withUser(claims, async (tx) => {
            const [row] = await tx<{ n: number }[]>`
              select count(*)::int as n from public.contacts c where ${segmentCondition(tx, a.id, filter)}`;
            return row.n;
          }),
        );
        // countSegment's own statement, run once: a branch it skips reads "never executed"
        const plan = await withUser(claims, async (tx) =>
          (await tx`explain (analyze, costs off) ${segmentCountSql(tx, a.id, filter, new Map())}`)
            .map((r) => r["QUERY PLAN"] as string)
            .join("\n"),
        );
        const scans = plan
          .split("\n")
          .filter((l) => /Seq Scan on contacts/.test(l) && !/never executed/.test(l));
        const seq = scans.length > 0 ? "yes" : "no";
        const indexes = [...new Set(plan.match(/using (\w+)/g)?.map((m) => m.slice(6)) ?? [])].join(" ");
        rows.push([
          label,
          n,
          percentile(times, 50).toFixed(1),
          percentile(times, 95).toFixed(1),
          percentile(whole.times, 95).toFixed(1),
          seq,
          indexes,
        ]);
        if (process.env.BENCH_PLANS === "1") console.log(`${label}\n${plan}\n`);
      }
      console.log(`(${RUNS} runs each after ${WARMUP} warm-ups; target: p95 <= 200 ms)`);
      table(
        ["filter", "count", "p50 ms", "p95 ms", "one statement p95 ms", "seq scan of contacts", "indexes"],
        rows,
      );
    } finally {
      await db.drop();
    }
  },
};

export default bench;
