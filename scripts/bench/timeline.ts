/**
 * The contact timeline (docs/decisions.md, "Contact timeline"): one contact with about BENCH_TIMELINE_ENTRIES
 * (10,000) entries over every kind (notes, consent, form submissions, registrations, purchases, email
 * sends and their events, merges and source changes), among 1,000 other contacts with 100 entries
 * each. p50/p95 of R runs, as the signed-in owner (RLS in force), after ANALYZE, of: the first page,
 * a deep page (the cursor after 90% of the entries), the first page filtered to one kind; against the
 * floor: the first page of one kind alone (notes, one index range), read the same way. The ratio is
 * p95 timeline / p95 floor.
 *
 *   DATABASE_URL=postgres://… npm run bench -- timeline
 */
import { performance } from "node:perf_hooks";
import { getContactTimeline } from "../../lib/contacts/get-contact-timeline";
import type { TimelinePosition } from "../../lib/contacts/timeline/types";
import { withUser } from "../../lib/db/doors";
import type { Sql } from "../../lib/db/client";
import type { BenchModule } from "./index";
import { benchDatabase, percentile, table } from "./lib/database";
import { verdict } from "./lib/verdict";

const ENTRIES = Number(process.env.BENCH_TIMELINE_ENTRIES ?? 10_000);
const OTHERS = 1_000;
const RUNS = Number(process.env.BENCH_TIMELINE_RUNS ?? 60);

/** `n` entries for the contact, spread over every kind and a year, newest now. */
async function load(sql: Sql, ws: string, owner: string, contact: string, n: number) {
  const share = (k: number) => Math.max(1, Math.floor(n / k));
  const at = (g: string) => sql.unsafe(`now() - (${g} * 997 % 525600) * interval '1 minute'`);
  const [form] = await sql`insert into forms (workspace_id, name) values (${ws}, 'Signup') returning id`;
  const [event] = await sql`insert into events (workspace_id, name) values (${ws}, 'Gala') returning id`;
  const [product] =
    await sql`insert into products (workspace_id, name) values (${ws}, 'Ticket') returning id`;
  await sql`insert into notes (workspace_id, contact_id, content, content_text, created_by, created_at)
            select ${ws}, ${contact}, '<p>note ' || g || '</p>', 'note ' || g, ${owner}, ${at("g")}
            from generate_series(1, ${share(5)}) g`;
  await sql`insert into consent_events (workspace_id, contact_id, action, flow, source, created_at)
            select ${ws}, ${contact}, (array['subscribed','unsubscribed'])[1 + g % 2], 'form', 'Form', ${at("g + 1")}
            from generate_series(1, ${share(10)}) g`;
  await sql`insert into form_submissions (workspace_id, form_id, contact_id, payload, created_at)
            select ${ws}, ${form.id}, ${contact}, json_build_object('email', 'c@example.test', 'message', repeat('m', 200)), ${at("g + 2")}
            from generate_series(1, ${share(7)}) g`;
  await sql`insert into event_registrations (workspace_id, event_id, contact_id, amount_paid, external_attendee_id, created_at)
            select ${ws}, ${event.id}, ${contact}, 10, ${contact} || '-' || g, ${at("g + 3")} from generate_series(1, ${share(20)}) g`;
  await sql`insert into transactions (workspace_id, contact_id, product_id, amount_paid, amount_refunded, transaction_date)
            select ${ws}, ${contact}, ${product.id}, 30, case when g % 5 = 0 then 10 else 0 end, ${at("g + 4")}
            from generate_series(1, ${share(7)}) g`;
  const sends =
    await sql`insert into email_sends (workspace_id, contact_id, to_email, kind, status, subject, created_at)
            select ${ws}, ${contact}, 'c@example.test', 'marketing', 'sent', 'News ' || g, ${at("g + 5")}
            from generate_series(1, ${share(7)}) g returning id`;
  await sql`insert into email_events (workspace_id, email_send_id, type, occurred_at)
            select ${ws}, s.id, (array['delivered','opened','clicked'])[1 + (row_number() over ()) % 3], s.created_at + interval '1 minute'
            from email_sends s where s.id in ${sql(sends.map((s) => s.id as string))}`;
  await sql`insert into audit_log (workspace_id, action, target_type, target_id, after, created_at)
            select ${ws}, (array['contact.source_changed','contact.merged'])[1 + g % 2], 'contact', ${contact},
                   jsonb_build_object('source', 'import'), ${at("g + 6")}
            from generate_series(1, ${share(20)}) g`;
}

/** The workspace, its owner, the contact and the others. */
async function loadAll(sql: Sql) {
  const [user] = await sql`insert into auth.users (email) values ('bench-owner@example.test') returning id`;
  await sql`insert into user_profiles (id, email) values (${user.id}, 'bench-owner@example.test')`;
  const [w] = await sql`insert into workspaces (name) values ('Bench') returning id`;
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${w.id}, ${user.id}, 'owner')`;
  const [contact] =
    await sql`insert into contacts (workspace_id, email) values (${w.id}, 'c@example.test') returning id`;
  await load(sql, w.id, user.id, contact.id, ENTRIES);
  const others = await sql`insert into contacts (workspace_id, email)
      select ${w.id}, 'o' || g || '@example.test' from generate_series(1, ${OTHERS}) g returning id`;
  for (const o of others) await load(sql, w.id, user.id, o.id as string, 100);
  await sql`analyze`;
}

async function run(baseUrl: string) {
  const db = await benchDatabase(baseUrl, "crm_bench_timeline", { max: 4 });
  const sql = db.sql;
  try {
    const started = performance.now();
    if (!db.reused) await loadAll(sql);
    const [user] = await sql`select id from auth.users where email = 'bench-owner@example.test'`;
    const [w] = await sql`select id from workspaces where name = 'Bench'`;
    const [contact] = await sql`select id from contacts where email = 'c@example.test'`;
    const [{ n }] = await sql`
      select (select count(*) from notes where contact_id = ${contact.id})
           + (select count(*) from consent_events where contact_id = ${contact.id})
           + (select count(*) from form_submissions where contact_id = ${contact.id})
           + (select count(*) from event_registrations where contact_id = ${contact.id})
           + (select count(*) from transactions where contact_id = ${contact.id})
           + (select count(*) from email_sends where contact_id = ${contact.id}) * 2
           + (select count(*) from audit_log where target_id = ${contact.id}) as n`;
    console.log(
      `a contact with ${Number(n).toLocaleString("en-US")} entries and ${OTHERS} others, ready in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    const claims = { sub: user.id as string, role: "authenticated" as const };
    const q = { workspaceId: w.id as string, contactId: contact.id as string };
    // the cursor after 90% of the entries, walked in pages of 200
    let deep: TimelinePosition | null = null;
    for (let seen = 0; seen < Number(n) * 0.9; seen += 200) {
      const page = await withUser(claims, (tx) => getContactTimeline(tx, { ...q, before: deep, limit: 200 }));
      deep = page.next;
    }

    const time = async (f: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < RUNS + 10; i++) {
        const t = performance.now();
        await f();
        times.push(performance.now() - t);
      }
      return times.slice(10);
    };
    const cases: [string, number[]][] = [
      [
        "floor: one kind's first page (notes)",
        await time(() =>
          withUser(
            claims,
            (tx) => tx`select n.id, n.created_at, n.content from notes n
              where n.contact_id = ${q.contactId} and n.workspace_id = ${q.workspaceId} and n.type = 'contact'
              order by n.created_at desc, n.id desc limit 51`,
          ),
        ),
      ],
      ["first page (50)", await time(() => withUser(claims, (tx) => getContactTimeline(tx, q)))],
      [
        "deep page (after 90%)",
        await time(() => withUser(claims, (tx) => getContactTimeline(tx, { ...q, before: deep }))),
      ],
      [
        "first page, emails only",
        await time(() => withUser(claims, (tx) => getContactTimeline(tx, { ...q, kinds: ["email"] }))),
      ],
    ];
    table(
      ["case", "runs", "p50 ms", "p95 ms", "max ms"],
      cases.map(([label, t]) => [
        label,
        t.length,
        percentile(t, 50).toFixed(1),
        percentile(t, 95).toFixed(1),
        Math.max(...t).toFixed(1),
      ]),
    );
    const floor = percentile(cases[0][1], 95);
    verdict("timeline first page p95 / one kind's page p95", percentile(cases[1][1], 95) / floor, {
      atMost: 8,
    });
    verdict("timeline deep page p95 / one kind's page p95", percentile(cases[2][1], 95) / floor, {
      atMost: 8,
    });
  } finally {
    await db.drop();
  }
}

const timelineBench: BenchModule = { title: "Contact timeline of a contact with 10,000 entries", run };
export default timelineBench;
