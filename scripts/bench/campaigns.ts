/**
 * npm run bench -- campaigns (docs/performance.md, "Campaigns"): a 4-step journey (send → wait →
 * branch on a click → send) for BENCH_CAMPAIGN_ENROLLMENTS enrollments (default 100,000), run by the
 * campaign sweep in this process as the worker runs it, with the wait shortened to a minute, on the dev
 * outbox (the database's side: the provider's side is the broadcast's pacer, `npm run bench -- sending`).
 * Against it, in the same run: a broadcast to the same contacts (the sends per second a campaign step
 * should keep near), a plain `insert … select` of as many enrollments, the lateness of each
 * enrollment's branch after its wait came due (p50, p99), and pg-boss while the enrollments wait:
 * the jobs queued, the time of one fetch, and the same with as many delayed jobs as enrollments in a
 * queue (the design the due-time index replaced: docs/decisions.md, "Campaign waits as a due-time
 * index"). It creates and drops its own database (crm_bench_campaigns).
 */
import { PgBoss } from "pg-boss";
import { connect, setSql, type Sql } from "../../lib/db/client";
import { withService } from "../../lib/db/doors";
import { createCampaignDraft, publishCampaign } from "../../lib/campaigns/campaigns";
import { runCampaignSweep } from "../../lib/campaigns/flows/run-campaign-sweep";
import { audienceSchema } from "../../lib/email/broadcast-audience";
import { createBroadcast } from "../../lib/email/broadcasts";
import { controlBroadcast } from "../../lib/email/control-broadcast";
import { runBroadcast } from "../../lib/email/flows/run-broadcast";
import { JOBS_SCHEMA } from "../../lib/jobs/queues";
import { producer, stopProducer } from "../../lib/jobs/producer";
import type { BenchModule } from "./index";
import { freshDatabase } from "./lib/database";
import { databaseCpuMs } from "./lib/next-server";
import { verdict } from "./lib/verdict";

const ENROLLMENTS = Number(process.env.BENCH_CAMPAIGN_ENROLLMENTS ?? 100_000);
const BENCH_DB = "crm_bench_campaigns";
const WAIT_MINUTES = 1;

async function seed(sql: Sql): Promise<{ workspaceId: string; userId: string }> {
  const [user] = await sql`insert into auth.users (email) values ('bench-owner@example.test') returning id`;
  await sql`insert into user_profiles (id, email) values (${user.id}, 'bench-owner@example.test')`;
  const [ws] = await sql`insert into workspaces (name) values ('Bench') returning id`;
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${ws.id}, ${user.id}, 'owner')`;
  await sql`
    insert into contacts (workspace_id, email, first_name, is_subscribed)
    select ${ws.id}, 'c' || i || '@example.test', 'Name' || (i % 1000), true
    from generate_series(1, ${ENROLLMENTS}) i`;
  await sql`vacuum analyze`;
  return { workspaceId: ws.id, userId: user.id };
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sweeps as the worker does (kicked again while work is due) until `finished` says so. Returns the
 * time the sweeps spent running enrollments (a sweep that found none due, waiting for a wait to end,
 * does not count: the rate is the runner's, not the journey's clock).
 */
async function sweepUntil(finished: () => Promise<boolean>): Promise<number> {
  let busy = 0;
  for (;;) {
    const t = performance.now();
    const outcome = await runCampaignSweep();
    if (outcome.status !== "done") throw new Error(`sweep: ${JSON.stringify(outcome)}`);
    const ran = outcome.output?.enrollments ?? 0;
    if (ran > 0) busy += performance.now() - t;
    if (await finished()) return busy;
    if (ran === 0) await sleep(200);
  }
}

const bench: BenchModule = {
  title: `campaigns: a 4-step journey for ${ENROLLMENTS.toLocaleString("en")} enrollments, against a broadcast to the same contacts`,
  async run(base: string) {
    const db = await freshDatabase(base, BENCH_DB);
    const sql = connect(db.url, { max: 4 });
    setSql(sql);
    const saved = { key: process.env.RESEND_API_KEY, url: process.env.DATABASE_URL };
    delete process.env.RESEND_API_KEY; // the dev outbox: the database's side of sending
    process.env.DATABASE_URL = db.url; // the job engine's producer (kicks enqueue jobs)
    await producer();
    try {
      const { workspaceId, userId } = await seed(sql);

      // the broadcast path: the same contacts, one email each
      const { id: broadcastId } = await withService((tx) =>
        createBroadcast(tx, {
          workspaceId,
          createdBy: userId,
          subject: "Hello {{first_name}}",
          body: "Hello {{first_name}},\n\nNews from the club: [see](https://example.com/news).",
          audience: audienceSchema.parse({}),
        }),
      );
      await withService((tx) => controlBroadcast(tx, { workspaceId, broadcastId, control: "start" }));
      const [bc0, bt0] = [databaseCpuMs(BENCH_DB), performance.now()];
      const sent = await runBroadcast({ workspaceId, broadcastId });
      if (sent.status !== "done") throw new Error(`broadcast: ${JSON.stringify(sent)}`);
      const broadcastMs = performance.now() - bt0;
      const broadcastCpu = databaseCpuMs(BENCH_DB) - bc0;

      // the journey
      const campaign = await withService(async (tx) => {
        const draft = await createCampaignDraft(tx, {
          workspaceId,
          name: "Welcome series",
          steps: [
            {
              id: "welcome",
              type: "send_email",
              subject: "Welcome, {{first_name}}",
              body: "Hello {{first_name}},\n\n[Start here](https://example.com/start).",
            },
            { id: "pause", type: "wait", duration: { minutes: WAIT_MINUTES } },
            { id: "clicked", type: "branch", condition: { type: "clicked", step: "welcome" }, else: "nudge" },
            { id: "tips", type: "send_email", subject: "Tips", body: "Glad you came by.", next: "end" },
            { id: "nudge", type: "send_email", subject: "Did you see this?", body: "Have a look." },
          ],
        });
        return publishCampaign(tx, { workspaceId, campaignId: draft.id });
      });

      // enrollment: as many rows by a plain insert … select (the floor), then by the campaign's trigger path
      const [ec0, et0] = [databaseCpuMs(BENCH_DB), performance.now()];
      await sql`create temporary table floor_enrollments as select * from campaign_enrollments with no data`;
      await sql`insert into floor_enrollments (id, workspace_id, campaign_id, contact_id, status)
                select gen_random_uuid(), workspace_id, ${campaign.id}, id, 'active' from contacts
                where workspace_id = ${workspaceId}`;
      const floorEnrollMs = performance.now() - et0;
      const floorEnrollCpu = databaseCpuMs(BENCH_DB) - ec0;
      const [ec1, et1] = [databaseCpuMs(BENCH_DB), performance.now()];
      await sql`insert into campaign_enrollments (workspace_id, campaign_id, contact_id, status)
                select workspace_id, ${campaign.id}, id, 'active' from contacts where workspace_id = ${workspaceId}`;
      const enrollMs = performance.now() - et1;
      const enrollCpu = databaseCpuMs(BENCH_DB) - ec1;

      const count = async (condition: "first" | "waiting" | "done") => {
        const [row] = await sql<{ n: number }[]>`
          select count(*)::int as n from campaign_enrollments
          where campaign_id = ${campaign.id} and ${
            condition === "first"
              ? sql`current_step is not null and current_step <> 'welcome'`
              : condition === "waiting"
                ? sql`status = 'active' and current_step = 'pause'`
                : sql`status <> 'active'`
          }`;
        return row.n;
      };

      // step 1: the first send for everyone
      const [c0] = [databaseCpuMs(BENCH_DB)];
      const firstMs = await sweepUntil(async () => (await count("first")) >= ENROLLMENTS);
      const firstCpu = databaseCpuMs(BENCH_DB) - c0;

      // pg-boss while they wait: what the due-time index leaves in its queues, and one fetch
      const boss = new PgBoss({
        connectionString: db.url,
        schema: JOBS_SCHEMA,
        supervise: false,
        schedule: false,
        migrate: false,
      });
      await boss.start();
      const depth = async () =>
        (
          await sql<
            { n: number }[]
          >`select count(*)::int as n from pgboss.job where state in ('created', 'retry')`
        )[0].n;
      const fetchMs = async (queue: string) => {
        const t = performance.now();
        for (let i = 0; i < 20; i++) await boss.fetch(queue);
        return (performance.now() - t) / 20;
      };
      const waitingNow = await count("waiting");
      const queuedWithIndex = await depth();
      const fetchWithIndex = await fetchMs("campaign-sweep");
      // the alternative: one delayed job per waiting enrollment in a queue of its own
      await boss.createQueue("bench-campaign-waits");
      const t0 = performance.now();
      for (let i = 0; i < ENROLLMENTS; i += 1000)
        await boss.insert(
          "bench-campaign-waits",
          Array.from({ length: Math.min(1000, ENROLLMENTS - i) }, (_, k) => ({
            data: { enrollment: i + k },
            startAfter: new Date(Date.now() + 3600_000),
          })),
        );
      const insertJobsMs = performance.now() - t0;
      const queuedWithJobs = await depth();
      const fetchWithJobs = await fetchMs("bench-campaign-waits");
      const fetchOtherWithJobs = await fetchMs("campaign-sweep");
      await sql`delete from pgboss.job where name = 'bench-campaign-waits'`;
      await boss.stop({ graceful: false });

      // a tenth click the first email (people, not machines), then the waits come due
      await sql`
        insert into email_events (workspace_id, email_send_id, type, occurred_at, is_machine)
        select workspace_id, id, 'clicked', now(), false from email_sends
        where campaign_enrollment_id is not null and campaign_step = 'welcome' and abs(hashtext(id::text)) % 10 = 0`;
      const [c1] = [databaseCpuMs(BENCH_DB)];
      const restMs = await sweepUntil(async () => (await count("done")) >= ENROLLMENTS);
      const restCpu = databaseCpuMs(BENCH_DB) - c1;

      // the step log grew by hundreds of thousands of rows since the last analyze: without fresh
      // statistics the planner joins it to itself in a nested loop (minutes at 100,000 enrollments)
      await sql`analyze campaign_step_runs`;
      const [late] = await sql<{ p50: number; p99: number; max: number }[]>`
        with due as (
          select w.enrollment_id, (substring(w.detail from 'until (.*)$'))::timestamptz as due_at, b.at
          from campaign_step_runs w
          join campaign_step_runs b on b.enrollment_id = w.enrollment_id and b.step_id = 'clicked'
          where w.campaign_id = ${campaign.id} and w.step_id = 'pause' and w.outcome = 'waiting')
        select percentile_cont(0.5) within group (order by extract(epoch from at - due_at))::float8 as p50,
               percentile_cont(0.99) within group (order by extract(epoch from at - due_at))::float8 as p99,
               max(extract(epoch from at - due_at))::float8 as max
        from due`;
      const [sends] = await sql<{ campaign: number; twice: number; broadcast: number }[]>`
        select (select count(*)::int from email_sends where campaign_enrollment_id is not null) as campaign,
               (select count(*)::int from (select campaign_enrollment_id, campaign_step from email_sends
                 where campaign_enrollment_id is not null group by 1, 2 having count(*) > 1) d) as twice,
               (select count(*)::int from email_sends where broadcast_id = ${broadcastId}) as broadcast`;

      const rate = (n: number, ms: number) => Math.round(n / (ms / 1000));
      console.table([
        {
          work: "broadcast to the same contacts",
          emails: sends.broadcast,
          "wall s": seconds(broadcastMs),
          "db cpu s": seconds(broadcastCpu),
          "emails/s": rate(sends.broadcast, broadcastMs),
        },
        {
          work: "journey: first send step",
          emails: ENROLLMENTS,
          "wall s": seconds(firstMs),
          "db cpu s": seconds(firstCpu),
          "emails/s": rate(ENROLLMENTS, firstMs),
        },
        {
          work: "journey: branch on the click, second send (time running)",
          emails: sends.campaign - ENROLLMENTS,
          "wall s": seconds(restMs),
          "db cpu s": seconds(restCpu),
          "emails/s": rate(sends.campaign - ENROLLMENTS, restMs),
        },
        {
          work: "enrollment: plain insert … select",
          "wall s": seconds(floorEnrollMs),
          "db cpu s": seconds(floorEnrollCpu),
        },
        {
          work: "enrollment: into campaign_enrollments",
          "wall s": seconds(enrollMs),
          "db cpu s": seconds(enrollCpu),
        },
      ]);
      console.table([
        {
          "pg-boss while enrollments wait": "due-time index (as built)",
          waiting: waitingNow,
          "jobs queued": queuedWithIndex,
          "fetch ms": fetchWithIndex.toFixed(2),
        },
        {
          "pg-boss while enrollments wait": `a delayed job per enrollment (insert ${seconds(insertJobsMs)} s)`,
          waiting: waitingNow,
          "jobs queued": queuedWithJobs,
          "fetch ms": fetchWithJobs.toFixed(2),
          "fetch ms, another queue": fetchOtherWithJobs.toFixed(2),
        },
      ]);
      console.log(
        `lateness of the branch after its wait came due: p50 ${late.p50.toFixed(1)} s, p99 ${late.p99.toFixed(1)} s, max ${late.max.toFixed(1)} s; ` +
          `${sends.campaign} campaign emails, ${sends.twice} (enrollment, step) sent twice`,
      );
      const journeyRate = sends.campaign / ((firstMs + restMs) / 1000);
      verdict(
        "journey sends/s against the broadcast's",
        journeyRate / (sends.broadcast / (broadcastMs / 1000)),
        { atLeast: 0.7 },
      );
      verdict("enrollment time against a plain insert … select", enrollMs / floorEnrollMs, { atMost: 3 });
      verdict("p99 lateness of due steps, in minutes", late.p99 / 60, { atMost: 1 });
    } finally {
      await stopProducer();
      for (const [name, value] of [
        ["RESEND_API_KEY", saved.key],
        ["DATABASE_URL", saved.url],
      ] as const)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      setSql(undefined);
      await sql.end();
      await db.drop();
    }
  },
};

export default bench;
