/**
 * Benchmark of sending at the provider's limit (docs/performance.md; docs/decisions.md, "One pacer
 * per Resend key"): a broadcast to every subscribed contact through the fake Resend limited as
 * Resend limits (429 past the rate), sent by two worker processes at once (two jobs on the one
 * broadcast), at 2 and at 5 requests per second with batches of 100. The floor is physical:
 * recipients ÷ 100 ÷ rate seconds; the figure is the wall time from start to 'sent' against it,
 * with what was lost (eligible and not sent), duplicated (delivered twice by the fake) and
 * refused with 429. Printed, not asserted.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -- sending
 *
 * BENCH_SENDING_RECIPIENTS changes the audience (default 20,000: the goal's 100,000 takes 500 s
 * at 2 requests per second). It creates and drops its own database (crm_bench_sending).
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { connect, setSql, type Sql } from "../../lib/db/client";
import { withService } from "../../lib/db/doors";
import { audienceSchema } from "../../lib/email/broadcast-audience";
import { createBroadcast } from "../../lib/email/broadcasts";
import { controlBroadcast } from "../../lib/email/control-broadcast";
import { enqueue } from "../../lib/jobs/enqueue";
import { producer, stopProducer } from "../../lib/jobs/producer";
import { startFakeResend } from "../../tests/fakes/resend";
import type { BenchModule } from "./index";
import { freshDatabase } from "./lib/database";

const RECIPIENTS = Number(process.env.BENCH_SENDING_RECIPIENTS ?? 20_000);
/** BENCH_SENDING_RATES=5 (a comma list) measures only those rates */
const RATES = (process.env.BENCH_SENDING_RATES ?? "2,5").split(",").map(Number);
const WORKERS = 2;

async function seed(sql: Sql): Promise<{ workspaceId: string; userId: string }> {
  const [user] = await sql`insert into auth.users (email) values ('bench-owner@example.test') returning id`;
  await sql`insert into user_profiles (id, email) values (${user.id}, 'bench-owner@example.test')`;
  const [ws] = await sql`insert into workspaces (name) values ('Bench') returning id`;
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${ws.id}, ${user.id}, 'owner')`;
  await sql`
    insert into contacts (workspace_id, email, is_subscribed)
    select ${ws.id}, 'c' || i || '@example.test', true from generate_series(1, ${RECIPIENTS}) i`;
  await sql`analyze`;
  return { workspaceId: ws.id, userId: user.id };
}

function spawnWorker(url: string, env: Record<string, string>): Promise<ChildProcess> {
  const worker = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/worker.ts")], {
    env: { ...process.env, ...env, DATABASE_URL: url, DATABASE_EMBEDDED: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve) =>
    worker.stdout!.on("data", (c: Buffer) => c.includes("started") && resolve(worker)),
  );
}

/** One broadcast at `rate` requests per second, on both sides of the wire, by two workers. */
async function run(sql: Sql, url: string, seeded: { workspaceId: string; userId: string }, rate: number) {
  const resend = await startFakeResend({ requestsPerSecond: rate });
  const env = {
    RESEND_API_KEY: `re_bench_${rate}`,
    RESEND_BASE_URL: resend.url,
    RESEND_REQUESTS_PER_SECOND: String(rate),
  };
  const workers = await Promise.all(Array.from({ length: WORKERS }, () => spawnWorker(url, env)));
  try {
    const { id } = await withService((db) =>
      createBroadcast(db, {
        workspaceId: seeded.workspaceId,
        createdBy: seeded.userId,
        subject: "Bench",
        body: "Hello\n\n{{unsubscribe_url}}",
        audience: audienceSchema.parse({}),
      }),
    );
    const input = { workspaceId: seeded.workspaceId, broadcastId: id };
    const start = performance.now();
    await withService(async (db) => {
      await controlBroadcast(db, { ...input, control: "start" });
      await enqueue(db, { queue: "broadcast", data: input }); // the second worker's job
    });
    for (;;) {
      const [{ status }] = await sql`select status from broadcasts where id = ${id}`;
      if (status === "sent") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - start) / 1000;
    const [counts] = await sql<{ sent: number; failed: number }[]>`
      select count(*) filter (where status = 'sent')::int as sent,
             count(*) filter (where status in ('failed', 'queued'))::int as failed
      from email_sends where broadcast_id = ${id}`;
    const delivered = resend.sent.map((e) => String(e.to));
    return {
      seconds,
      floor: RECIPIENTS / 100 / rate,
      lost: RECIPIENTS - new Set(delivered).size,
      twice: delivered.length - new Set(delivered).size,
      failed: counts.failed,
      limited: resend.limited,
      requests: resend.requests.length,
    };
  } finally {
    await Promise.all(
      workers.map((w) => {
        const exited = new Promise((resolve) => w.once("exit", resolve));
        w.kill("SIGTERM");
        return exited;
      }),
    );
    await resend.stop();
  }
}

const bench: BenchModule = {
  title: `sending: ${RECIPIENTS.toLocaleString("en")} recipients through a rate-limited Resend, ${WORKERS} workers`,
  async run(base: string) {
    const db = await freshDatabase(base, "crm_bench_sending");
    const sql = connect(db.url, { max: 4 });
    setSql(sql);
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = db.url;
    await producer();
    const rows: Record<string, string | number>[] = [];
    try {
      const seeded = await seed(sql);
      for (const rate of RATES) {
        const r = await run(sql, db.url, seeded, rate);
        rows.push({
          "requests/s": rate,
          "wall s": r.seconds.toFixed(1),
          "floor s": r.floor.toFixed(1),
          "× floor": (r.seconds / r.floor).toFixed(2),
          lost: r.lost,
          duplicated: r.twice,
          "failed or queued": r.failed,
          "429s": r.limited,
          requests: r.requests,
        });
      }
      console.table(rows);
    } finally {
      await stopProducer();
      setSql(undefined);
      await sql.end();
      await db.drop();
      process.env.DATABASE_URL = saved;
    }
  },
};

export default bench;
