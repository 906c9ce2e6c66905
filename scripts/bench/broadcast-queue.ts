/**
 * npm run bench -- broadcast-queue: the database's side of sending a 1,000,000-recipient broadcast
 * (docs/performance.md, "Sending at the provider's limit"): the audience claimed into sendable batches
 * (claimBroadcastBatch: eligibility of spec 8.3, the rendered email, the lease) and each batch recorded
 * as the provider took it (recordBroadcastDelivery), batch after batch as the broadcast job runs, with
 * the network call left out. The figure is the Postgres CPU those statements cost, and the wall time,
 * against a plain `insert … select` of the same number of email rows in the same run. Goal: the whole
 * audience queued in under 2 minutes of database time.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -- broadcast-queue
 *
 * BENCH_QUEUE_RECIPIENTS changes the audience (default 1,000,000). It creates and drops its own
 * database (crm_bench_broadcast_queue).
 */
import { connect, setSql, type Sql } from "../../lib/db/client";
import { withService } from "../../lib/db/doors";
import { audienceSchema } from "../../lib/email/broadcast-audience";
import { createBroadcast } from "../../lib/email/broadcasts";
import { controlBroadcast } from "../../lib/email/control-broadcast";
import {
  BROADCAST_BATCH_SIZE,
  claimBroadcastBatch,
  recordBroadcastDelivery,
} from "../../lib/email/send-broadcast";
import { producer, stopProducer } from "../../lib/jobs/producer";
import type { BenchModule } from "./index";
import { freshDatabase } from "./lib/database";
import { databaseCpuMs } from "./lib/next-server";
import { verdict } from "./lib/verdict";

const RECIPIENTS = Number(process.env.BENCH_QUEUE_RECIPIENTS ?? 1_000_000);
const BENCH_DB = "crm_bench_broadcast_queue";
/** what the broadcast job claims at once with Resend: four batch calls of 100 (flows/run-broadcast.ts) */
const CLAIM = BROADCAST_BATCH_SIZE * 4;

async function seed(sql: Sql): Promise<{ workspaceId: string; userId: string }> {
  const [user] = await sql`insert into auth.users (email) values ('bench-owner@example.test') returning id`;
  await sql`insert into user_profiles (id, email) values (${user.id}, 'bench-owner@example.test')`;
  const [ws] = await sql`insert into workspaces (name) values ('Bench') returning id`;
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${ws.id}, ${user.id}, 'owner')`;
  // one in twenty unsubscribed and one in fifty suppressed: rows skipped with their reason, as in life
  await sql`
    insert into contacts (workspace_id, email, first_name, is_subscribed)
    select ${ws.id}, 'c' || i || '@example.test', 'Name' || (i % 1000), i % 20 <> 0
    from generate_series(1, ${RECIPIENTS}) i`;
  await sql`
    insert into contact_suppressions (workspace_id, contact_id, reason)
    select workspace_id, id, 'bounce' from contacts where workspace_id = ${ws.id} and abs(hashtext(email)) % 50 = 0`;
  await sql`vacuum analyze`;
  return { workspaceId: ws.id, userId: user.id };
}

const bench: BenchModule = {
  title: `broadcast-queue: a ${RECIPIENTS.toLocaleString("en")}-recipient broadcast claimed and recorded in batches of ${CLAIM}`,
  async run(base: string) {
    const db = await freshDatabase(base, BENCH_DB);
    const sql = connect(db.url, { max: 2 });
    setSql(sql);
    // claimBroadcastBatch queues for Resend (leases, provider 'resend') only with a key; nothing is sent
    const saved = { key: process.env.RESEND_API_KEY, url: process.env.DATABASE_URL };
    process.env.RESEND_API_KEY = "re_bench_queue";
    process.env.DATABASE_URL = db.url; // the job engine's producer (starting a broadcast enqueues its job)
    await producer();
    try {
      const seeded = await seed(sql);
      const { id } = await withService((tx) =>
        createBroadcast(tx, {
          workspaceId: seeded.workspaceId,
          createdBy: seeded.userId,
          subject: "Hello {{first_name}}",
          body: "Hello {{first_name}},\n\nNews from the club.\n\n{{unsubscribe_url}}",
          audience: audienceSchema.parse({}),
        }),
      );
      const input = { workspaceId: seeded.workspaceId, broadcastId: id };
      await withService((tx) => controlBroadcast(tx, { ...input, control: "start" }));

      const [cpu0, t0] = [databaseCpuMs(BENCH_DB), performance.now()];
      let batches = 0;
      let claimMs = 0;
      for (;;) {
        const c0 = databaseCpuMs(BENCH_DB);
        const claim = await withService((tx) =>
          claimBroadcastBatch(tx, { ...input, batchSize: CLAIM, runner: "bench" }),
        );
        claimMs += databaseCpuMs(BENCH_DB) - c0;
        if ("error" in claim) throw new Error(claim.error.message);
        if (claim.queued.length) {
          const ids = claim.queued.map((e) => e.id);
          await withService((tx) =>
            recordBroadcastDelivery(tx, { ids, providerIds: ids.map((x) => `re_${x}`) }),
          );
        }
        batches += 1;
        if (claim.stopped) break;
      }
      const queueCpu = databaseCpuMs(BENCH_DB) - cpu0;
      const queueWall = performance.now() - t0;
      const [counts] = await sql<{ sent: number; skipped: number; other: number }[]>`
        select count(*) filter (where status = 'sent')::int as sent,
               count(*) filter (where status = 'skipped')::int as skipped,
               count(*) filter (where status not in ('sent', 'skipped'))::int as other
        from email_sends where broadcast_id = ${id}`;

      // the floor: the same number of email rows, written by one plain statement
      const [cpu1, t1] = [databaseCpuMs(BENCH_DB), performance.now()];
      await sql`
        insert into email_sends (workspace_id, contact_id, to_email, kind, subject, html, status, provider)
        select workspace_id, id, email, 'marketing', 'Hello', '<p>Hello</p>', 'queued', 'resend'
        from contacts where workspace_id = ${seeded.workspaceId}`;
      const floorCpu = databaseCpuMs(BENCH_DB) - cpu1;
      const floorWall = performance.now() - t1;

      const s = (ms: number) => (ms / 1000).toFixed(1);
      console.table([
        {
          work: `claim and record, ${batches} batches`,
          "db cpu s": s(queueCpu),
          "…of it claiming": s(claimMs),
          "wall s": s(queueWall),
          sent: counts.sent,
          skipped: counts.skipped,
          "left queued or failed": counts.other,
        },
        { work: "plain insert … select of as many rows", "db cpu s": s(floorCpu), "wall s": s(floorWall) },
      ]);
      console.log(
        `database time: ${s(queueCpu)} s of Postgres CPU (${(queueCpu / floorCpu).toFixed(2)}x the plain insert's); ` +
          `${Math.round(RECIPIENTS / (queueWall / 1000))} recipients/s`,
      );
      // the goal names the claiming (queueing); recording what the provider took is sending's
      verdict("minutes of database time claiming the audience into batches", claimMs / 60_000, { atMost: 2 });
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
