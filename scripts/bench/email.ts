/**
 * Benchmark of the email area (spec 6.4, 8.3), in-process against the real Postgres, as the
 * signed-in owner (RLS in force) or the service identity:
 * - broadcast preview (eligible vs skipped with reasons) over the whole audience;
 * - a broadcast to 10,000 contacts in batches of 100, to the dev outbox and through the fake
 *   Resend batch endpoint (claim, deliver, record per batch);
 * - bounce webhooks through the route handler (signature check, inbox, suppression, notification).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/crm_consent_email npx tsx scripts/bench/email.ts
 *
 * It creates and drops its own database (crm_bench_email) beside DATABASE_URL's.
 */
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import type { Sql } from "../../lib/db/client";
import { withUser, type Claims } from "../../lib/db/doors";
import { audienceSchema } from "../../lib/email/broadcast-audience";
import { createBroadcast, previewBroadcast } from "../../lib/email/broadcasts";
import { sendBroadcastBatch } from "../../lib/email/flows/send-broadcast-batch";
import { signWebhook } from "../../lib/email/webhook-signature";
import { startFakeResend } from "../../tests/fakes/resend";
import { benchDatabase } from "./lib/database";

const CONTACTS = Number(process.env.BENCH_EMAIL_CONTACTS ?? 10_000);
const WEBHOOKS = Number(process.env.BENCH_EMAIL_WEBHOOKS ?? 1_000);

async function seed(sql: Sql): Promise<{ workspaceId: string; claims: Claims }> {
  const [user] = await sql`insert into auth.users (email) values ('bench-owner@example.test') returning id`;
  await sql`insert into user_profiles (id, email) values (${user.id}, 'bench-owner@example.test')`;
  const [ws] = await sql`insert into workspaces (name) values ('Bench') returning id`;
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${ws.id}, ${user.id}, 'owner')`;
  // 80% subscribed, 5% unsubscribed, 5% bounced, the rest never opted in
  await sql`
    insert into contacts (workspace_id, email, is_subscribed, unsubscribed_at)
    select ${ws.id}, 'c' || i || '@example.test', i % 20 < 16, case when i % 20 = 16 then now() end
    from generate_series(1, ${CONTACTS}) i`;
  await sql`
    insert into contact_suppressions (workspace_id, contact_id, reason)
    select workspace_id, id, 'bounce' from contacts where workspace_id = ${ws.id}
      and substring(email from 2)::text ~ '^[0-9]+@' and (split_part(substring(email from 2), '@', 1))::int % 20 = 17`;
  return {
    workspaceId: ws.id,
    claims: { sub: user.id, role: "authenticated", email: "bench-owner@example.test" },
  };
}

async function broadcastRun(workspaceId: string, claims: Claims) {
  const { id } = await withUser(claims, (db) =>
    createBroadcast(db, {
      workspaceId,
      createdBy: claims.sub,
      subject: "Bench",
      body: "Hello\n\n{{unsubscribe_url}}",
      audience: audienceSchema.parse({}),
    }),
  );
  const start = performance.now();
  let batches = 0;
  let progress;
  do {
    const r = await sendBroadcastBatch((fn) => withUser(claims, fn), { workspaceId, broadcastId: id });
    if ("error" in r) throw r.error;
    progress = r.data;
    batches += 1;
  } while (!progress.done);
  const seconds = (performance.now() - start) / 1000;
  return { seconds, batches, ...progress };
}

export default async function run(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("Set DATABASE_URL to a Postgres server");
  const db = await benchDatabase(base, "crm_bench_email", { max: 10, keep: false });
  const sql = db.sql;
  const resend = await startFakeResend();
  const rows: Record<string, string | number>[] = [];
  try {
    const { workspaceId, claims } = await seed(sql);

    const times: number[] = [];
    let preview;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      preview = await withUser(claims, (db) =>
        previewBroadcast(db, { workspaceId, audience: audienceSchema.parse({}) }),
      );
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    rows.push({
      measure: `preview over ${preview!.total} contacts (median of 5)`,
      value: `${times[2].toFixed(0)} ms`,
    });
    rows.push({
      measure: "  eligible / skipped",
      value: `${preview!.eligible} / ${preview!.total - preview!.eligible}`,
    });

    const outbox = await broadcastRun(workspaceId, claims);
    rows.push({
      measure: `broadcast to dev outbox (${outbox.batches} batches)`,
      value: `${(outbox.processed / outbox.seconds).toFixed(0)} contacts/s (${outbox.sent} sent, ${outbox.skipped} skipped, ${outbox.seconds.toFixed(1)} s)`,
    });

    process.env.RESEND_API_KEY = "re_bench";
    process.env.RESEND_BASE_URL = resend.url;
    // the fake does not limit: the pace at Resend's limits is `npm run bench -- sending`'s
    process.env.RESEND_REQUESTS_PER_SECOND = "100000";
    const viaResend = await broadcastRun(workspaceId, claims);
    rows.push({
      measure: `broadcast via fake Resend batch API (${viaResend.batches} batches)`,
      value: `${(viaResend.processed / viaResend.seconds).toFixed(0)} contacts/s (${viaResend.sent} sent, ${viaResend.seconds.toFixed(1)} s)`,
    });
    const perContact =
      await sql`select count(*)::int as n from email_sends group by broadcast_id, contact_id having count(*) > 1`;
    rows.push({ measure: "  contacts emailed twice by one broadcast", value: perContact.length });

    process.env.RESEND_WEBHOOK_SECRET = `whsec_${Buffer.from("bench-secret-bench-secret-bench!").toString("base64")}`;
    const { POST } = await import("../../app/api/webhooks/email/route");
    const ids =
      await sql`select provider_message_id from email_sends where provider = 'resend' and provider_message_id is not null limit ${WEBHOOKS}`;
    const start = performance.now();
    let ok = 0;
    for (const { provider_message_id } of ids) {
      const body = JSON.stringify({ type: "email.bounced", data: { email_id: provider_message_id } });
      const id = `msg_${randomUUID()}`;
      const ts = Math.floor(Date.now() / 1000);
      const res = await POST(
        new Request("http://localhost/api/webhooks/email", {
          method: "POST",
          body,
          headers: {
            "svix-id": id,
            "svix-timestamp": String(ts),
            "svix-signature": signWebhook(process.env.RESEND_WEBHOOK_SECRET, id, ts, body),
          },
        }),
      );
      if (res.status === 200) ok += 1;
    }
    const seconds = (performance.now() - start) / 1000;
    rows.push({
      measure: `bounce webhooks, sequential (${ids.length})`,
      value: `${(ids.length / seconds).toFixed(0)} events/s, ${((seconds / ids.length) * 1000).toFixed(1)} ms each, ${ids.length - ok} errors`,
    });
    console.table(rows);
  } finally {
    // the benchmarks share one process: the next one must not find this one's stopped fake
    for (const name of [
      "RESEND_API_KEY",
      "RESEND_BASE_URL",
      "RESEND_WEBHOOK_SECRET",
      "RESEND_REQUESTS_PER_SECOND",
    ])
      delete process.env[name];
    await resend.stop();
    await db.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
