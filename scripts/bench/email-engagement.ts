/**
 * Email engagement (docs/api.md, "Email engagement"; docs/decisions.md, "Email engagement"):
 * 1. Ingest: N Resend events (delivered, opened, clicked, as a broadcast draws them) through the
 *    webhook route's handler (Svix signature check, inbox, send lookup, machine check, event
 *    row), 16 at a time, against the floor: a plain insert of the same email_events rows, one
 *    transaction each, 16 at a time. The ratio is events/s ingested / rows/s inserted.
 * 2. The broadcast page's report (getBroadcastReport: counts, clicks per link, timeline) and the
 *    API's stats (getBroadcastStats) over a broadcast of M events, p50/p95 of R runs as the
 *    signed-in owner (RLS in force), after ANALYZE (autovacuum is off on this machine).
 *
 *   DATABASE_URL=postgres://… npm run bench -- email
 *   BENCH_ENGAGEMENT_EVENTS=100000 BENCH_ENGAGEMENT_REPORT_EVENTS=1000000 (defaults; smaller for quick runs)
 */
import { randomUUID } from "node:crypto";
import { withService, withUser, type Claims } from "../../lib/db/doors";
import { getBroadcastReport, getBroadcastStats } from "../../lib/email/broadcast-stats";
import { signWebhook } from "../../lib/email/webhook-signature";
import type { BenchModule } from "./index";
import { benchDatabase, table } from "./lib/database";
import { verdict } from "./lib/verdict";

const EVENTS = Number(process.env.BENCH_ENGAGEMENT_EVENTS ?? 100_000);
const REPORT_EVENTS = Number(process.env.BENCH_ENGAGEMENT_REPORT_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_ENGAGEMENT_RUNS ?? 20);
const CONCURRENCY = 16;
const SECRET = `whsec_${Buffer.from("bench-engagement-secret-32-bytes").toString("base64")}`;

/** Per send: delivered, then (for most) an open, another open and a click, spread over a day. */
const PATTERN = ["email.delivered", "email.opened", "email.opened", "email.clicked", "email.opened"] as const;
const LINKS = ["https://example.com/a", "https://example.com/b", "https://example.com/c?x=1"];

async function seed(
  sql: Awaited<ReturnType<typeof benchDatabase>>["sql"],
  name: string,
  sends: number,
): Promise<{ workspaceId: string; broadcastId: string; claims: Claims }> {
  const [user] = await sql`insert into auth.users (email) values (${`${name}@bench.test`}) returning id`;
  await sql`insert into user_profiles (id, email) values (${user.id}, ${`${name}@bench.test`})`;
  const [ws] =
    await sql`insert into workspaces (name, email_tracking_enabled) values (${name}, true) returning id`;
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${ws.id}, ${user.id}, 'owner')`;
  const [b] = await sql`
    insert into broadcasts (workspace_id, subject, status, sent_at) values (${ws.id}, 'Bench', 'sent', now())
    returning id`;
  await sql`
    insert into contacts (workspace_id, email, is_subscribed)
    select ${ws.id}, ${name} || '-' || i || '@bench.test', true from generate_series(1, ${sends}) i`;
  await sql`
    insert into email_sends (workspace_id, contact_id, broadcast_id, to_email, kind, status, provider,
                             provider_message_id, sent_at)
    select workspace_id, id, ${b.id}, email, 'marketing', 'sent', 'resend', gen_random_uuid()::text,
           now() - interval '2 days'
    from contacts where workspace_id = ${ws.id}`;
  return { workspaceId: ws.id, broadcastId: b.id, claims: { sub: user.id, role: "authenticated" } };
}

async function inParallel(count: number, work: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await work(next++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function timed(runs: number, fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await fn(); // warm the plan cache and the buffers
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

const bench: BenchModule = {
  title: `Email engagement: ingesting ${EVENTS.toLocaleString("en-US")} Resend events; the broadcast report over ${REPORT_EVENTS.toLocaleString("en-US")} events`,
  async run(baseUrl) {
    process.env.RESEND_WEBHOOK_SECRET = SECRET;
    const db = await benchDatabase(baseUrl, "crm_bench_engagement", { max: CONCURRENCY + 2, keep: false });
    const sql = db.sql;
    try {
      const { POST } = await import("../../app/api/webhooks/email/route");
      // 1. ingest through the route, then the floor: the same rows by plain inserts
      const sendsNeeded = Math.ceil(EVENTS / PATTERN.length);
      const ingest = await seed(sql, "ingest", sendsNeeded);
      const emails = (
        await sql`select provider_message_id from email_sends where workspace_id = ${ingest.workspaceId} order by id`
      ).map((r) => r.provider_message_id as string);
      await sql`analyze`;
      const base = Date.now() - 86_400_000;
      const ingested = await inParallel(EVENTS, async (i) => {
        const type = PATTERN[i % PATTERN.length];
        const emailId = emails[Math.floor(i / PATTERN.length)];
        const at = new Date(base + (i % PATTERN.length) * 600_000 + (i % 97) * 1000).toISOString();
        const event = {
          type,
          created_at: at,
          data: {
            created_at: at,
            email_id: emailId,
            from: "Bench <news@bench.test>",
            to: ["someone@bench.test"],
            subject: "Bench",
            ...(type === "email.clicked"
              ? {
                  click: {
                    link: LINKS[i % LINKS.length],
                    ipAddress: "203.0.113.9",
                    userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Version/17.0 Safari/605.1.15",
                    timestamp: at,
                  },
                }
              : {}),
          },
        };
        const body = JSON.stringify(event);
        const id = `msg_${randomUUID().replaceAll("-", "")}`;
        const ts = Math.floor(Date.now() / 1000);
        const res = await POST(
          new Request("http://localhost/api/webhooks/email", {
            method: "POST",
            body,
            headers: {
              "svix-id": id,
              "svix-timestamp": String(ts),
              "svix-signature": signWebhook(SECRET, id, ts, body),
            },
          }),
        );
        if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
      });
      const [{ stored }] =
        await sql`select count(*)::int as stored from email_events where workspace_id = ${ingest.workspaceId}`;
      const rows = await sql`
        select workspace_id, email_send_id, broadcast_id, type, occurred_at, link_url, user_agent, host(ip) as ip,
               svix_id, is_machine
        from email_events where workspace_id = ${ingest.workspaceId}`;
      await sql`delete from email_events where workspace_id = ${ingest.workspaceId}`;
      await sql`vacuum analyze email_events`;
      const plain = await inParallel(rows.length, async (i) => {
        const r = rows[i];
        await withService(
          (tx) => tx`
            insert into public.email_events
              (workspace_id, email_send_id, broadcast_id, type, occurred_at, link_url, user_agent, ip, svix_id, is_machine)
            values (${r.workspace_id}, ${r.email_send_id}, ${r.broadcast_id}, ${r.type}, ${r.occurred_at},
                    ${r.link_url}, ${r.user_agent}, ${r.ip}, ${r.svix_id}, ${r.is_machine})`,
        );
      });

      // 2. the report over a large broadcast: REPORT_EVENTS events on REPORT_EVENTS / 10 sends
      const reportSends = Math.max(1, Math.floor(REPORT_EVENTS / 10));
      const big = await seed(sql, "report", reportSends);
      const loadStarted = performance.now();
      // per send: delivered, 6 opens (the first a machine's for one send in five), 3 clicks
      await sql`
        insert into email_events (workspace_id, email_send_id, broadcast_id, type, occurred_at, link_url, is_machine)
        select s.workspace_id, s.id, s.broadcast_id,
               case when k = 1 then 'delivered' when k <= 7 then 'opened' else 'clicked' end,
               s.sent_at + make_interval(secs => k * 900 + (hashtext(s.id::text) & 65535)),
               case when k > 7 then 'https://example.com/' || (k % 5) end,
               k = 2 and hashtext(s.id::text) % 5 = 0
        from email_sends s cross join generate_series(1, 10) k
        where s.broadcast_id = ${big.broadcastId}`;
      const loadSeconds = (performance.now() - loadStarted) / 1000;
      await sql`vacuum analyze email_events`;
      const input = { workspaceId: big.workspaceId, broadcastId: big.broadcastId };
      const report = await timed(RUNS, () => withUser(big.claims, (tx) => getBroadcastReport(tx, input)));
      const stats = await timed(RUNS, () => withUser(big.claims, (tx) => getBroadcastStats(tx, input)));
      const [{ events }] =
        await sql`select count(*)::int as events from email_events where broadcast_id = ${big.broadcastId}`;
      const counted = await withUser(big.claims, (tx) => getBroadcastStats(tx, input));

      console.log(
        `\n${stored} of ${EVENTS} events stored by the route; report broadcast: ${events} events on ${reportSends} sends (loaded in ${loadSeconds.toFixed(0)} s)`,
      );
      console.log(`stats: ${JSON.stringify(counted)}`);
      table(
        ["what", "value", "ratio"],
        [
          ["plain insert of the same rows, 16 at a time (rows/s)", Math.round(plain), "1.00"],
          [
            "ingest through the route, 16 at a time (events/s)",
            Math.round(ingested),
            (ingested / plain).toFixed(2),
          ],
          [
            `broadcast report (page), p50 / p95 of ${RUNS} (ms)`,
            `${report.p50.toFixed(0)} / ${report.p95.toFixed(0)}`,
            "",
          ],
          [
            `broadcast stats (API), p50 / p95 of ${RUNS} (ms)`,
            `${stats.p50.toFixed(0)} / ${stats.p95.toFixed(0)}`,
            "",
          ],
        ],
      );
      verdict("engagement ingest rate / plain insert rate of the same rows", ingested / plain, {
        atLeast: 0.2,
      });
    } finally {
      delete process.env.RESEND_WEBHOOK_SECRET;
      await db.drop();
    }
  },
};

export default bench;
