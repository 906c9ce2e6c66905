import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { POST as rsvpPost } from "@/app/api/rsvp/[eventId]/route";
import { POST as emailWebhookPost } from "@/app/api/webhooks/email/route";
import { createContact } from "@/lib/contacts/create-contact";
import { getContacts } from "@/lib/contacts/get-contacts";
import { connect, setSql, type Sql } from "@/lib/db/client";
import { withService, withUser } from "@/lib/db/doors";
import { signWebhook } from "@/lib/email/webhook-signature";
import { enqueue } from "@/lib/jobs/enqueue";
import { startWorker } from "@/worker/start";
import { producer, stopProducer } from "@/lib/jobs/producer";
import { log } from "@/lib/observability/log";
import { createWebhookEndpoint } from "@/lib/webhooks/outbound/create-webhook-endpoint";
import { deliverDueWebhooks } from "@/lib/webhooks/outbound/flows/deliver-due-webhooks";
import { webhookEndpointSchema } from "@/lib/webhooks/outbound/schemas";
import { setupTestDatabase } from "../helpers/db";
import { createContact as insertContact, createWorkspace } from "../helpers/factories";
import { createForm, randomIp, storedCounts, submit } from "../helpers/forms";
import { pgbouncerBinary, startPgBouncer, type RunningPgBouncer } from "../helpers/pgbouncer";
import { TEST_JOB_ENV } from "../helpers/workers";
import { waitFor } from "../helpers/wait-for";

/**
 * The service behind a transaction-mode pooler (Supabase's port 6543; here Debian's PgBouncer in
 * transaction mode, 5 server connections shared by 40 client connections, so consecutive
 * transactions of one client land on different server sessions). One flow of every area runs
 * concurrently through it: none may fail with a prepared statement missing or mismatched, and
 * the database ends in the state the flows promise (docs/decisions.md "Transaction pooler").
 * Only the real Postgres pass (DATABASE_URL) with pgbouncer installed runs it.
 */
const binary = pgbouncerBinary();
const runs = process.env.TEST_DB === "postgres" && binary !== null;
const why = runs
  ? ""
  : process.env.TEST_DB !== "postgres"
    ? " [skipped: runs in the real Postgres pass only (set DATABASE_URL)]"
    : " [skipped: pgbouncer is not installed (apt-get install -y pgbouncer)]";

const db = setupTestDatabase();
let bouncer: RunningPgBouncer;
let pooledUrl: string;
let pooled: Sql;
let receiver: Server;
let receiverUrl: string;
const received: string[] = [];
const errors = vi.spyOn(log, "error");
const secret = `whsec_${Buffer.from("test-secret-for-the-email-hook!!").toString("base64")}`;

beforeAll(async () => {
  if (!runs) return;
  // in front of the direct database even when TEST_POOLER already put the file behind a pooler
  bouncer = await startPgBouncer(process.env.DATABASE_DIRECT_URL ?? db.url, { poolSize: 5 });
  const url = new URL(bouncer.url);
  url.searchParams.set("pgbouncer", "true"); // how the service learns it is pooled (lib/db/client.ts)
  pooledUrl = url.toString();
  pooled = connect(pooledUrl, { max: 40 });
  setSql(pooled);
  process.env.DATABASE_URL = pooledUrl;
  await stopProducer();
  await producer();
  Object.assign(process.env, TEST_JOB_ENV, { RESEND_WEBHOOK_SECRET: secret, APP_URL: "http://crm.test" });
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS", "1");
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push(Buffer.concat(chunks).toString("utf8"));
      res.end("thanks");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  if (!runs) return;
  await new Promise((resolve) => receiver.close(resolve));
  await stopProducer();
  setSql(db.sql);
  await pooled.end();
  await bouncer.stop();
  vi.unstubAllEnvs();
  delete process.env.RESEND_WEBHOOK_SECRET;
});

const many = <T>(n: number, fn: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => fn(i)));

describe.skipIf(!runs)(
  `through PgBouncer in transaction mode, every area works with many connections${why}`,
  () => {
    test("4.2: 40 concurrent form submissions each store their contact and submission", async () => {
      const ws = await createWorkspace(db.sql);
      const form = await createForm(db.sql, ws.id, { require_verification: false });
      const answers = await many(40, (i) =>
        submit(form.id, { ip: randomIp(), json: { email: `f${i}@example.test` } }),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(40).fill(200));
      expect(await storedCounts(db.sql, ws.id)).toMatchObject({ contacts: 40, submissions: 40 });
    });

    test("6.1: 20 concurrent bounce webhooks are kept in the inbox and processed into suppressions", async () => {
      const ws = await createWorkspace(db.sql);
      const contacts = await many(20, () => insertContact(db.sql, ws.id, { is_subscribed: true }));
      const answers = await many(20, async (i) => {
        const providerId = randomUUID();
        await db.sql`insert into email_sends (workspace_id, contact_id, to_email, kind, status, provider, provider_message_id)
                   values (${ws.id}, ${contacts[i].id}, 'x@example.test', 'marketing', 'sent', 'resend', ${providerId})`;
        const body = JSON.stringify({
          type: "email.bounced",
          created_at: new Date().toISOString(),
          data: { email_id: providerId, to: ["x@example.test"] },
        });
        const id = `msg_${randomUUID()}`;
        const ts = Math.floor(Date.now() / 1000);
        return emailWebhookPost(
          new Request("http://localhost/api/webhooks/email", {
            method: "POST",
            body,
            headers: {
              "svix-id": id,
              "svix-timestamp": String(ts),
              "svix-signature": signWebhook(secret, id, ts, body),
            },
          }),
        );
      });
      expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
      const [row] = await db.sql`
      select (select count(*)::int from contact_suppressions where workspace_id = ${ws.id} and reason = 'bounce') as suppressed,
             (select count(*)::int from webhook_inbox where workspace_id = ${ws.id}) as kept`;
      expect(row).toEqual({ suppressed: 20, kept: 20 });
    });

    test("event capacity: 30 concurrent RSVPs for 10 seats register exactly 10, refuse 20 with 409", async () => {
      const ws = await createWorkspace(db.sql);
      const [event] = await db.sql`
      insert into events (workspace_id, name, start_time, end_time, timezone, is_published, capacity)
      values (${ws.id}, 'Open house', now() + interval '1 day', now() + interval '25 hours', 'UTC', true, 10)
      returning id`;
      const answers = await many(30, (i) =>
        rsvpPost(
          new Request(`http://crm.test/api/rsvp/${event.id}`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-forwarded-for": randomIp() },
            body: JSON.stringify({ email: `r${i}@example.test` }),
          }),
          { params: Promise.resolve({ eventId: event.id }) },
        ),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([...Array(10).fill(200), ...Array(20).fill(409)]);
      const [row] =
        await db.sql`select count(*)::int as n from event_registrations where event_id = ${event.id}`;
      expect(row.n).toBe(10);
    });

    test("4.15: 30 members' concurrent contact creations are all listed, under RLS, through the pooler", async () => {
      const ws = await createWorkspace(db.sql);
      const created = await many(30, (i) =>
        withUser(ws.owner.claims, (tx) =>
          createContact(tx, { workspaceId: ws.id, email: `m${i}@example.test` }),
        ),
      );
      expect(created.filter((r) => "data" in r)).toHaveLength(30);
      const page = await withUser(ws.owner.claims, (tx) =>
        getContacts(tx, { workspaceId: ws.id, pageSize: 100 }),
      );
      expect("error" in page ? page : page.total).toBe(30);
      const [row] = await db.sql`select count(*)::int as n from contacts where workspace_id = ${ws.id}`;
      expect(row.n).toBe(30);
    });

    test("outbound webhooks: three pumps at once deliver each of 15 events exactly once", async () => {
      const ws = await createWorkspace(db.sql);
      const input = webhookEndpointSchema.parse({
        url: receiverUrl,
        description: "",
        eventTypes: ["contact.created"],
        enabled: true,
      });
      const { data } = await withUser(ws.owner.claims, (tx) =>
        createWebhookEndpoint(tx, { ...input, workspaceId: ws.id }),
      );
      received.length = 0;
      await many(15, () => insertContact(db.sql, ws.id));
      let delivered = 0;
      while (delivered < 15) {
        const counts = await many(3, () => deliverDueWebhooks({ limit: 4 }));
        if (counts.every((n) => n === 0)) break;
        delivered += counts.reduce((a, b) => a + b, 0);
      }
      expect(delivered).toBe(15);
      expect(received).toHaveLength(15);
      const rows = await db.sql`select status from webhook_deliveries where endpoint_id = ${data.id}`;
      expect(rows.map((r) => r.status)).toEqual(Array(15).fill("succeeded"));
    });

    test("jobs: 10 jobs enqueued in concurrent transactions are completed by a worker whose pg-boss is pooled too", async () => {
      await db.sql`insert into rate_limit_hits (key, hit_at)
                 select 'pooler:' || g, now() - interval '2 hours' from generate_series(1, 50) g`;
      const ids = await many(10, () =>
        withService((tx) => enqueue(tx, { queue: "sweep-rate-limit-hits", data: {} })),
      );
      expect(ids.every((id) => typeof id === "string")).toBe(true);
      const worker = await startWorker({ url: pooledUrl, queues: ["sweep-rate-limit-hits"] });
      try {
        await waitFor(
          async () => {
            const [row] = await db.sql`
          select count(*)::int as n from pgboss.job where id = any(${ids as string[]}::uuid[]) and state = 'completed'`;
            return row.n === 10;
          },
          "the 10 sweep jobs completed",
          20_000,
        );
      } finally {
        await worker.stop(1000);
      }
      const [left] = await db.sql`select count(*)::int as n from rate_limit_hits where key like 'pooler:%'`;
      expect(left.n).toBe(0);
    });

    test("no named statement was left on the server sessions, and no error was logged about one", async () => {
      const sessions = await many(10, () => pooled`select count(*)::int as n from pg_prepared_statements`);
      expect(sessions.map(([row]) => row.n)).toEqual(Array(10).fill(0));
      const logged = errors.mock.calls.map((call) =>
        JSON.stringify(call, Object.getOwnPropertyNames(Error.prototype)),
      );
      expect(logged.filter((line) => /prepared statement/i.test(line))).toEqual([]);
    });
  },
);
