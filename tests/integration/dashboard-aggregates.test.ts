import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { periodOf } from "@/lib/dashboard/dashboard-period";
import { getDashboard } from "@/lib/dashboard/get-dashboard";
import { getContacts } from "@/lib/contacts/get-contacts";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace, type TestWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

// a small deterministic generator, so a failure can be replayed
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SOURCES = ["manual", "form", "import", "ticketing", "payproc", "event"];

/** Random contacts, consent, suppressions, forms and purchases; then random updates and deletes. */
async function randomWorkspace(seed: number): Promise<TestWorkspace> {
  const r = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const ws = await createWorkspace(db.sql);
  const day = 86_400_000;
  const contacts = Array.from({ length: 150 }, (_, i) => {
    const subscribed = r() < 0.5;
    return {
      workspace_id: ws.id,
      email: `c${i}-${seed}@example.test`,
      source: pick(SOURCES),
      is_subscribed: subscribed,
      unsubscribed_at: !subscribed && r() < 0.3 ? new Date() : null,
      created_at: new Date(Date.now() - Math.floor(r() * 120) * day - Math.floor(r() * day)),
    };
  });
  // several statements, so counters get several rows
  const ids: string[] = [];
  for (let i = 0; i < contacts.length; i += 40)
    ids.push(
      ...(await db.sql`insert into contacts ${db.sql(contacts.slice(i, i + 40))} returning id`).map(
        (c) => c.id,
      ),
    );
  for (const id of ids.filter(() => r() < 0.15))
    await db.sql`update contacts set source = ${pick(SOURCES)}, is_subscribed = ${r() < 0.5}, unsubscribed_at = ${r() < 0.5 ? new Date() : null} where id = ${id}`;
  await db.sql`update contacts set is_subscribed = true, unsubscribed_at = null where id = any(${ids.filter(() => r() < 0.1)})`;
  await db.sql`delete from contacts where id = any(${ids.filter(() => r() < 0.1)})`;
  const alive = (await db.sql`select id from contacts where workspace_id = ${ws.id}`).map((c) => c.id);
  for (const id of alive.filter(() => r() < 0.25))
    await db.sql`insert into contact_suppressions (workspace_id, contact_id, reason)
                 values (${ws.id}, ${id}, ${pick(["bounce", "complaint", "manual", "unsubscribe"])})
                 on conflict do nothing`;

  // lifted suppressions clear the flag; deleted suppressed contacts leave no count behind
  await db.sql`delete from contact_suppressions where workspace_id = ${ws.id} and reason in ('bounce', 'manual')
               and contact_id = any(${alive.filter(() => r() < 0.3)})`;
  await db.sql`delete from contacts where id = any(${alive.filter(() => r() < 0.05)})`;
  await db.sql`update contacts set unsubscribed_at = now(), is_subscribed = false
               where workspace_id = ${ws.id} and email_suppressed and id = any(${alive.filter(() => r() < 0.5)})`;
  alive.splice(
    0,
    alive.length,
    ...(await db.sql`select id from contacts where workspace_id = ${ws.id}`).map((c) => c.id),
  );
  const forms = await db.sql`insert into forms ${db.sql([
    { workspace_id: ws.id, name: "A" },
    { workspace_id: ws.id, name: "B" },
  ])} returning id`;
  for (let i = 0; i < 60; i++) {
    const form = pick(forms).id;
    const at = new Date(Date.now() - Math.floor(r() * 100) * day);
    if (r() < 0.4)
      await db.sql`insert into pending_form_submissions (workspace_id, form_id, email, payload, token, created_at)
                   values (${ws.id}, ${form}, 'p@example.test', '{}', ${`${seed}-${i}`}, ${at})`;
    else
      await db.sql`insert into form_submissions (workspace_id, form_id, contact_id, payload, submission_type, created_at)
                   values (${ws.id}, ${form}, ${pick(alive)}, '{}', ${pick(["direct", "verified_email", "api_key"])}, ${at})`;
  }
  for (let i = 0; i < 30; i++) {
    const paid = Math.floor(r() * 10_000) / 100;
    await db.sql`insert into transactions (workspace_id, contact_id, amount_paid, amount_refunded, currency, transaction_date, external_payproc_transaction_id)
                 values (${ws.id}, ${pick(alive)}, ${paid}, ${r() < 0.3 ? Math.floor(paid * 50) / 100 : 0}, ${pick(["usd", "eur"])},
                         ${new Date(Date.now() - Math.floor(r() * 100) * day)}, ${`cs_${seed}_${i}`})`;
  }
  for (let i = 0; i < 8; i++)
    await db.sql`insert into tasks (workspace_id, title, kind, status)
                 values (${ws.id}, 'T', ${pick(["general", "refund_review"])}, ${pick(["open", "in_progress", "completed"])})`;
  return ws;
}

describe("home dashboard aggregates", () => {
  test.each([7, 30, 90] as const)(
    "the %i-day dashboard matches brute-force counts over the rows on random data",
    async (days) => {
      const ws = await randomWorkspace(days * 7919);
      await randomWorkspace(days * 104729); // a neighbour whose rows must not count
      const period = periodOf(days);
      const dash = await withUser(ws.owner.claims, (tx) =>
        getDashboard(tx, { workspaceId: ws.id, userId: ws.owner.id, period }),
      );

      const bySource = await db.sql`
      select to_char((created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, source, count(*)::int as n
      from contacts where workspace_id = ${ws.id}
        and (created_at at time zone 'UTC')::date between ${period.from}::date and ${period.to}::date
      group by 1, 2 order by 1, 2`;
      expect(dash.contactsBySource).toEqual([...bySource]);

      const [consent] = await db.sql`
      with c as (
        select case when exists (select 1 from contact_suppressions s where s.contact_id = c.id and s.reason in ('bounce', 'complaint', 'manual')) then 'suppressed'
                    when unsubscribed_at is not null then 'unsubscribed' when is_subscribed then 'subscribed' else 'not_opted_in' end as k
        from contacts c where workspace_id = ${ws.id})
      select count(*) filter (where k = 'subscribed')::int as subscribed, count(*) filter (where k = 'not_opted_in')::int as not_opted_in,
             count(*) filter (where k = 'unsubscribed')::int as unsubscribed, count(*) filter (where k = 'suppressed')::int as suppressed,
             count(*)::int as total from c`;
      expect(dash.consent).toEqual(consent);
      // each share links to the contact list filtered by that status: the same number of rows
      for (const emailStatus of ["subscribed", "not_opted_in", "unsubscribed", "suppressed"] as const) {
        const list = await withUser(ws.owner.claims, (tx) =>
          getContacts(tx, { workspaceId: ws.id, emailStatus, pageSize: 100 }),
        );
        if ("error" in list) throw list.error;
        expect(list.total, emailStatus).toBe(consent[emailStatus]);
        expect(list.data.length, emailStatus).toBe(Math.min(100, consent[emailStatus]));
      }

      const forms = await db.sql`
      with f as (
        select form_id, (created_at at time zone 'UTC')::date as day, 1 as submissions, 0 as staged,
               (submission_type = 'verified_email')::int as verified
        from form_submissions where workspace_id = ${ws.id}
        union all
        select form_id, (created_at at time zone 'UTC')::date, 0, 1, 0 from pending_form_submissions where workspace_id = ${ws.id})
      select f.form_id, forms.name as form_name, to_char(f.day, 'YYYY-MM-DD') as day, sum(submissions)::int as submissions,
             sum(staged)::int as staged, sum(verified)::int as verified
      from f join forms on forms.id = f.form_id
      where f.day between ${period.from}::date and ${period.to}::date
      group by 1, 2, 3 order by 2, 1, 3`;
      expect(dash.forms).toEqual([...forms]);

      const money = await db.sql`
      select currency, count(*)::int as purchases, (sum(amount_paid) * 100)::float8 as revenue_cents,
             (sum(amount_refunded) * 100)::float8 as refunded_cents
      from transactions where workspace_id = ${ws.id} and (transaction_date at time zone 'UTC')::date between ${period.from}::date and ${period.to}::date
      group by 1 order by 1`;
      expect(dash.money).toEqual([...money]);

      const [{ n }] = await db.sql`
      select count(*)::int as n from tasks where workspace_id = ${ws.id} and kind = 'refund_review' and status <> 'completed'`;
      expect(dash.openReviewTasks).toBe(n);
    },
  );

  test("the kept counters equal the rows after every write, and a deleted workspace's counters go with it", async () => {
    const ws = await randomWorkspace(4242);
    const [diff] = await db.sql`
      select
        (select coalesce(sum(n), 0)::int from contact_daily_counts where workspace_id = ${ws.id}) as daily,
        (select coalesce(sum(n), 0)::int from contact_status_counts where workspace_id = ${ws.id}) as status,
        (select count(*)::int from contacts where workspace_id = ${ws.id}) as rows`;
    expect(diff.daily).toBe(diff.rows);
    expect(diff.status).toBe(diff.rows);
    await db.sql`delete from workspaces where id = ${ws.id}`;
    const [left] = await db.sql`
      select (select count(*)::int from contact_daily_counts where workspace_id = ${ws.id}) +
             (select count(*)::int from contact_status_counts where workspace_id = ${ws.id}) +
             (select count(*)::int from form_daily_counts where workspace_id = ${ws.id}) as n`;
    expect(left.n).toBe(0);
  });
});
