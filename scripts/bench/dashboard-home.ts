/**
 * The home dashboard (docs/decisions.md, "Home dashboard") at a large workspace: 1,000,000 contacts created
 * over 120 days from every source (with consent and 20,000 suppressions), 100,000 form submissions and
 * 20,000 staged ones over two forms, 50,000 purchases, 20 events with registrations. Prints the
 * p50/p95/max of getDashboard (as the signed-in owner, through RLS) for the 7, 30 and 90-day
 * periods. BENCH_CONTACTS overrides the size.
 */
import { performance } from "node:perf_hooks";
import { withUser } from "../../lib/db/doors";
import { periodOf } from "../../lib/dashboard/dashboard-period";
import { getDashboard } from "../../lib/dashboard/get-dashboard";
import { benchDatabase, percentile } from "./lib/database";

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);

async function run(baseUrl: string) {
  const db = await benchDatabase(baseUrl, "crm_bench_dashboard_home", { max: 4 });
  const sql = db.sql;
  try {
    let [ws] =
      await sql`select w.id, m.user_id from workspaces w join workspace_members m on m.workspace_id = w.id limit 1`;
    if (!db.reused || !ws) {
      const started = performance.now();
      const [user] =
        await sql`insert into auth.users (email) values ('bench-owner@example.test') returning id`;
      await sql`insert into user_profiles (id, email) values (${user.id}, 'bench-owner@example.test')`;
      const [w] = await sql`insert into workspaces (name) values ('Bench') returning id`;
      await sql`insert into workspace_members (workspace_id, user_id, role) values (${w.id}, ${user.id}, 'owner')`;
      for (let from = 0; from < CONTACTS; from += 100_000)
        await sql`
          insert into contacts (workspace_id, email, source, is_subscribed, unsubscribed_at, created_at)
          select ${w.id}, 'c' || g || '@example.test',
                 (array['manual','form','import','ticketing','payproc','event'])[1 + g % 6],
                 g % 2 = 0, case when g % 7 = 0 then now() end,
                 now() - (g % 120) * interval '1 day' - (g % 86400) * interval '1 second'
          from generate_series(${from}::int, ${Math.min(from + 100_000, CONTACTS) - 1}::int) g`;
      await sql`insert into contact_suppressions (workspace_id, contact_id, reason)
                select ${w.id}, id, (array['bounce','complaint','manual','unsubscribe'])[1 + (abs(hashtext(id::text)) % 4)]
                from contacts where workspace_id = ${w.id} order by id limit 20000`;
      const forms =
        await sql`insert into forms (workspace_id, name) values (${w.id}, 'A'), (${w.id}, 'B') returning id`;
      await sql`insert into form_submissions (workspace_id, form_id, contact_id, payload, submission_type, created_at)
                select ${w.id}, (array[${forms[0].id}::uuid, ${forms[1].id}::uuid])[1 + g % 2], c.id, '{}',
                       case when g % 3 = 0 then 'verified_email' else 'direct' end, now() - (g % 90) * interval '1 day'
                from generate_series(1, 100000) g
                join lateral (select id from contacts where workspace_id = ${w.id} and email = 'c' || g || '@example.test') c on true`;
      await sql`insert into pending_form_submissions (workspace_id, form_id, email, payload, token, created_at)
                select ${w.id}, ${forms[0].id}, 'p' || g || '@example.test', '{}', md5(g::text), now() - (g % 90) * interval '1 day'
                from generate_series(1, 20000) g`;
      await sql`insert into transactions (workspace_id, amount_paid, amount_refunded, transaction_date, external_payproc_transaction_id)
                select ${w.id}, 10 + g % 90, case when g % 10 = 0 then 5 else 0 end, now() - (g % 120) * interval '1 day', 'cs_bench_' || g
                from generate_series(1, 50000) g`;
      await sql`insert into events (workspace_id, name, start_time, end_time, capacity)
                select ${w.id}, 'Event ' || g, now() + g * interval '1 day', now() + g * interval '1 day' + interval '2 hours', 500
                from generate_series(1, 20) g`;
      await sql`insert into event_registrations (workspace_id, event_id, contact_id)
                select ${w.id}, e.id, c.id from (select id from events where workspace_id = ${w.id}) e
                cross join lateral (select id from contacts where workspace_id = ${w.id} order by id limit 300) c`;
      await sql`analyze`;
      console.log(
        `loaded ${CONTACTS.toLocaleString("en-US")} contacts in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
      [ws] =
        await sql`select w.id, m.user_id from workspaces w join workspace_members m on m.workspace_id = w.id limit 1`;
    }
    const claims = { sub: ws.user_id, role: "authenticated" as const };
    console.log("period | runs | p50 ms | p95 ms | max ms");
    for (const days of [7, 30, 90] as const) {
      const times: number[] = [];
      for (let i = 0; i < 60; i++) {
        const t = performance.now();
        await withUser(claims, (tx) =>
          getDashboard(tx, { workspaceId: ws.id, userId: ws.user_id, period: periodOf(days) }),
        );
        times.push(performance.now() - t);
      }
      const warm = times.slice(10);
      console.log(
        `${days} days | ${warm.length} | ${percentile(warm, 50).toFixed(1)} | ${percentile(warm, 95).toFixed(1)} | ${Math.max(...warm).toFixed(1)}`,
      );
    }
  } finally {
    await db.drop();
  }
}

const dashboardBench = { title: "Home dashboard at a large workspace", run };
export default dashboardBench;
