/**
 * Benchmark of background work (docs/performance.md): a broadcast to 100,000 contacts run by a worker
 * process (`npm run worker`), to the dev outbox and through the fake Resend batch endpoint:
 * contacts/s from start to 'sent', the worker's peak memory (VmHWM), and the ratio to a plain
 * `insert … select` of the same audience into email_sends (the database's own limit for that
 * work). Printed, not asserted; the machine is shared, so the figures are noisy.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/crm_jobs npm run bench -- jobs
 *
 * It creates and drops its own database (crm_bench_jobs) beside DATABASE_URL's.
 * BENCH_JOBS_CONTACTS changes the audience size.
 */
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { connect, setSql, type Sql } from "../../lib/db/client";
import { withService } from "../../lib/db/doors";
import { audienceSchema } from "../../lib/email/broadcast-audience";
import { createBroadcast } from "../../lib/email/broadcasts";
import { controlBroadcast } from "../../lib/email/control-broadcast";
import { installJobs } from "../../lib/jobs/flows/start-worker";
import { producer, stopProducer } from "../../lib/jobs/producer";
import { startFakeResend } from "../../tests/fakes/resend";
import type { BenchModule } from "./index";
import { freshDatabase } from "./lib/database";

const CONTACTS = Number(process.env.BENCH_JOBS_CONTACTS ?? 100_000);

async function seed(sql: Sql): Promise<{ workspaceId: string; userId: string }> {
  const [user] = await sql`insert into auth.users (email) values ('bench-owner@example.test') returning id`;
  await sql`insert into user_profiles (id, email) values (${user.id}, 'bench-owner@example.test')`;
  const [ws] = await sql`insert into workspaces (name) values ('Bench') returning id`;
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${ws.id}, ${user.id}, 'owner')`;
  // 90% subscribed, the rest never opted in (skipped with the reason)
  await sql`
    insert into contacts (workspace_id, email, is_subscribed)
    select ${ws.id}, 'c' || i || '@example.test', i % 10 <> 0 from generate_series(1, ${CONTACTS}) i`;
  await sql`analyze`;
  return { workspaceId: ws.id, userId: user.id };
}

const newBroadcast = (workspaceId: string, userId: string) =>
  withService((db) =>
    createBroadcast(db, {
      workspaceId,
      createdBy: userId,
      subject: "Bench",
      body: "Hello\n\n{{unsubscribe_url}}",
      audience: audienceSchema.parse({}),
    }),
  );

/** The database's own limit: the same audience into email_sends in one statement. */
async function plainInsert(sql: Sql, workspaceId: string, userId: string): Promise<number> {
  const { id } = await newBroadcast(workspaceId, userId);
  const start = performance.now();
  await sql`
    insert into email_sends (workspace_id, contact_id, broadcast_id, to_email, kind, subject, html, status, provider)
    select c.workspace_id, c.id, ${id}, c.email, 'marketing', 'Bench', '<p>Hello</p>', 'outbox', 'outbox'
    from contacts c where c.workspace_id = ${workspaceId}`;
  return CONTACTS / ((performance.now() - start) / 1000);
}

async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** A broadcast run by a worker process from start to 'sent'. */
async function jobRun(
  sql: Sql,
  url: string,
  input: { workspaceId: string; userId: string; env: Record<string, string> },
) {
  const worker = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/worker.ts")], {
    env: { ...process.env, ...input.env, DATABASE_URL: url, DATABASE_EMBEDDED: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) =>
    worker.stdout!.on("data", (c: Buffer) => c.includes("started") && resolve()),
  );
  const { id } = await newBroadcast(input.workspaceId, input.userId);
  const start = performance.now();
  await withService((db) =>
    controlBroadcast(db, { workspaceId: input.workspaceId, broadcastId: id, control: "start" }),
  );
  for (;;) {
    const [{ status }] = await sql`select status from broadcasts where id = ${id}`;
    if (status === "sent") break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seconds = (performance.now() - start) / 1000;
  const rss = await peakRss(worker.pid!);
  const exited = new Promise((resolve) => worker.once("exit", resolve));
  worker.kill("SIGTERM");
  await exited;
  const [counts] = await sql<{ sent: number; skipped: number; twice: number }[]>`
    select count(*) filter (where status in ('outbox', 'sent'))::int as sent,
           count(*) filter (where status = 'skipped')::int as skipped,
           (select count(*)::int from (select contact_id from email_sends where broadcast_id = ${id}
                                       group by contact_id having count(*) > 1) d) as twice
    from email_sends where broadcast_id = ${id}`;
  return { seconds, perSecond: CONTACTS / seconds, rss, ...counts };
}

const bench: BenchModule = {
  title: `jobs: a broadcast to ${CONTACTS.toLocaleString("en")} contacts on a worker`,
  async run(base: string) {
    const db = await freshDatabase(base, "crm_bench_jobs");
    await installJobs(db.url);
    const sql = connect(db.url, { max: 4 });
    setSql(sql);
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = db.url;
    await producer();
    const resend = await startFakeResend();
    const rows: Record<string, string>[] = [];
    try {
      const { workspaceId, userId } = await seed(sql);
      const limit = await plainInsert(sql, workspaceId, userId);
      rows.push({
        measure: "plain insert … select into email_sends",
        value: `${limit.toFixed(0)} contacts/s`,
      });
      const runs = [
        { name: "dev outbox", env: { RESEND_API_KEY: "" } as Record<string, string> },
        {
          name: "fake Resend batch endpoint",
          // unlimited, as the fake is here: the cost of the job's own work (`npm run bench --
          // sending` measures the pace at Resend's limits)
          env: {
            RESEND_API_KEY: "re_bench",
            RESEND_BASE_URL: resend.url,
            RESEND_REQUESTS_PER_SECOND: "100000",
          },
        },
      ];
      for (const run of runs) {
        const r = await jobRun(sql, db.url, { workspaceId, userId, env: run.env });
        rows.push({
          measure: `worker broadcast, ${run.name}`,
          value: `${r.perSecond.toFixed(0)} contacts/s (${r.seconds.toFixed(1)} s; ${r.sent} sent, ${r.skipped} skipped, ${r.twice} twice)`,
        });
        rows.push({ measure: "  ratio to the plain insert", value: (r.perSecond / limit).toFixed(2) });
        rows.push({
          measure: "  worker peak memory (VmHWM)",
          value: `${(r.rss / 1024 / 1024).toFixed(0)} MB`,
        });
      }
      console.table(rows);
    } finally {
      await resend.stop();
      await stopProducer();
      setSql(undefined);
      await sql.end();
      await db.drop();
      process.env.DATABASE_URL = saved; // the next benchmark in this process builds beside it
    }
  },
};

export default bench;
