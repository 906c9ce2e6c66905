import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connect, setSql, type Sql } from "@/lib/db/client";
import { webReadiness } from "@/lib/observability/readiness";
import { POST as rsvpPost } from "@/app/api/rsvp/[eventId]/route";
import { POST as formPost } from "@/app/api/forms/[formId]/route";
import { POST as emailWebhookPost } from "@/app/api/webhooks/email/route";
import * as v1Contacts from "@/app/api/v1/contacts/route";
import { createWorkspace } from "../helpers/factories";
import { apiKey, call } from "../helpers/api-v1";
import { createForm, randomIp } from "../helpers/forms";
import { postgresBinaries, startReplicaPair, type ReplicaPair } from "../helpers/replica";
import { FAKE_RESEND_WEBHOOK_SECRET, resendEvent, resendWebhookRequest } from "../fakes/resend";

/**
 * DESIGN.md section 9 "Failover" and docs/decisions.md "Failover: the driver picks the primary",
 * against clusters of their own (a primary and a hot standby streaming from it,
 * tests/helpers/replica.ts): a multi-host URL with target_session_attrs=read-write lands on the
 * primary whichever host it names first; a request whose database is lost or read-only answers
 * 503 `unavailable` with Retry-After and stores nothing, and the same request repeated once the
 * primary is back is stored once; readiness wants a primary; and a process whose server is killed
 * under its running transactions keeps running and serves again when the server is back. Only the
 * real Postgres pass runs it.
 */
const binaries = postgresBinaries();
const runs = process.env.TEST_DB === "postgres" && binaries !== null;
const why = runs
  ? ""
  : process.env.TEST_DB !== "postgres"
    ? " [skipped: runs in the real Postgres pass only (set DATABASE_URL)]"
    : " [skipped: PostgreSQL server binaries (initdb, pg_basebackup) are not installed]";
if (!runs) console.log(`database-failover.test.ts${why}`);

let pair: ReplicaPair;
let admin: Sql;

beforeAll(async () => {
  if (!runs) return;
  pair = await startReplicaPair();
  admin = connect(pair.primary.url(pair.database), { max: 2 });
}, 120_000);

afterAll(async () => {
  if (!runs) return;
  setSql(undefined);
  await admin.end({ timeout: 1 });
  await pair.stop();
});

const multiHost = (first: number, second: number) =>
  `postgres://postgres@127.0.0.1:${first},127.0.0.1:${second}/${pair.database}?target_session_attrs=read-write`;

/** The app's pool on `url` for the duration of `fn`. */
async function withAppPool<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const sql = connect(url, { max: 3, connectTimeoutSeconds: 2 });
  setSql(sql);
  try {
    return await fn();
  } finally {
    setSql(undefined);
    await sql.end({ timeout: 1 });
  }
}

async function seed() {
  const ws = await createWorkspace(admin);
  const [event] = await admin`
    insert into public.events (workspace_id, name, is_published, start_time, end_time)
    values (${ws.id}, 'Failover', true, now() + interval '1 day', now() + interval '2 days') returning id`;
  const form = await createForm(admin, ws.id, { require_verification: false });
  const key = await apiKey(admin, ws.id, ["contacts:write"]);
  await pair.caughtUp();
  return { ws, eventId: event.id as string, formId: form.id, key: key.raw };
}

const rsvp = (eventId: string, email: string, ip: string) =>
  rsvpPost(
    new Request(`http://crm.test/api/rsvp/${eventId}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify({ email, first_name: "Ada" }),
    }),
    { params: Promise.resolve({ eventId }) },
  );

const submitForm = (formId: string, email: string, ip: string) =>
  formPost(
    new Request(`http://crm.test/api/forms/${formId}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify({ email }),
    }),
    { params: Promise.resolve({ formId }) },
  );

describe.skipIf(!runs)(`failover: the primary, whichever host a multi-host URL names first${why}`, () => {
  test("target_session_attrs=read-write passes over a hot standby named first and connects to the primary", async () => {
    const sql = connect(multiHost(pair.replica.port, pair.primary.port), { max: 1 });
    try {
      const [row] = await sql`select pg_is_in_recovery() as recovering, current_setting('port')::int as port`;
      expect(row).toEqual({ recovering: false, port: pair.primary.port });
    } finally {
      await sql.end();
    }
  });

  test("readiness is not ready on a standby (a failover not yet promoted), ready on the primary", async () => {
    await withAppPool(pair.replica.url(pair.database), async () => {
      const ready = await webReadiness();
      expect(ready.ready).toBe(false);
      expect(ready.checks.database).toBe("failed");
    });
    await withAppPool(multiHost(pair.replica.port, pair.primary.port), async () => {
      expect((await webReadiness()).checks.database).toBe("ok");
    });
  });

  test("a write on a standby (read_only_sql_transaction) answers 503 unavailable with Retry-After, not 500", async () => {
    const { eventId, formId, key } = await seed();
    const email = `standby-${Date.now()}@example.test`;
    await withAppPool(pair.replica.url(pair.database), async () => {
      const answers = [await rsvp(eventId, email, randomIp()), await submitForm(formId, email, randomIp())];
      for (const res of answers) {
        expect(res.status).toBe(503);
        expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
        expect((await res.json()).code).toBe("unavailable");
      }
      const api = await call(v1Contacts.POST, { method: "POST", key, body: { email } });
      expect(api.status).toBe(503);
      expect(api.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(api.body.error.code).toBe("unavailable");
    });
    const rows = await admin`select 1 from public.contacts where email = ${email}`;
    expect(rows).toHaveLength(0);
  });

  test("the database lost mid-service: RSVP, form, webhook and API answer 503 with Retry-After; repeated once it is back, each is stored once", async () => {
    const { ws, eventId, formId, key } = await seed();
    const [send] = await admin`
      insert into public.email_sends (workspace_id, to_email, subject, status, provider, provider_message_id, kind)
      values (${ws.id}, 'someone@example.test', 'Hello', 'sent', 'resend', ${`msg-${Date.now()}`}, 'transactional')
      returning id, provider_message_id`;
    const ip = randomIp();
    const email = `lost-${Date.now()}@example.test`;
    const svixId = `msg_failover_${Date.now()}`;
    const webhook = () => {
      const request = resendWebhookRequest(
        "http://crm.test/api/webhooks/email",
        resendEvent("email.delivered", send.provider_message_id),
        { id: svixId, secret: FAKE_RESEND_WEBHOOK_SECRET },
      );
      return emailWebhookPost(request, { params: Promise.resolve({}) });
    };
    const all = async () => ({
      rsvp: await rsvp(eventId, email, ip),
      form: await submitForm(formId, `form-${email}`, ip),
      webhook: await webhook(),
      api: (await call(v1Contacts.POST, {
        method: "POST",
        key,
        body: { email: `api-${email}` },
        headers: { "idempotency-key": `failover-${email}` },
      })) as { status: number; headers: Headers },
    });
    process.env.RESEND_WEBHOOK_SECRET = FAKE_RESEND_WEBHOOK_SECRET;
    await withAppPool(pair.primary.url(pair.database), async () => {
      await pair.primary.stop("immediate"); // a crash: every connection is cut
      try {
        const answers = await all();
        for (const [what, res] of Object.entries(answers)) {
          expect({ what, status: res.status }).toEqual({ what, status: 503 });
          expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
        }
      } finally {
        await pair.primary.start();
      }
      // the same requests again, as a client honouring Retry-After sends them
      const again = await all();
      expect(Object.values(again).map((r) => r.status)).toEqual([200, 200, 200, 201]);
      const once = await all(); // and once more: nothing is stored twice
      expect(once.api.status).toBe(201);
    });
    await admin.end();
    admin = connect(pair.primary.url(pair.database), { max: 2 });
    const [counts] = await admin`
      select
        (select count(*)::int from public.event_registrations r join public.contacts c on c.id = r.contact_id
          where r.event_id = ${eventId} and c.email = ${email}) as registrations,
        (select count(*)::int from public.email_sends s join public.contacts c on c.id = s.contact_id
          where c.email = ${email}) as confirmations,
        (select count(*)::int from public.contacts where workspace_id = ${ws.id} and email = ${`api-${email}`}) as api_contacts,
        (select count(*)::int from public.contacts where workspace_id = ${ws.id} and email = ${`form-${email}`}) as form_contacts,
        (select count(*)::int from public.email_events where svix_id = ${svixId}) as webhook_events`;
    expect(counts).toEqual({
      registrations: 1,
      confirmations: 1,
      api_contacts: 1,
      form_contacts: 1,
      webhook_events: 1,
    });
  }, 60_000);

  test("no driver error ends the process: a server killed under running transactions, the process serves again when it is back", async () => {
    const script = path.join(__dirname, "..", "helpers", "transactions-under-kill.ts");
    const child = spawn(process.execPath, ["--import", "tsx", script, pair.primary.url(pair.database)], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LOG_LEVEL: "error" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const seen = async (text: string, from = 0) => {
      for (let i = 0; i < 600; i++) {
        if (output.indexOf(text, from) !== -1) return;
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(
        `the process did not print "${text}" (exit ${child.exitCode}):\n${output.slice(-3000)}`,
      );
    };
    try {
      await seen("committed");
      await pair.primary.stop("immediate");
      const mark = output.length;
      await seen("failed", mark); // its transactions fail against the dead server …
      await pair.primary.start();
      const back = output.length;
      await seen("committed", back); // … and commit again once it is back
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  }, 90_000);
});
