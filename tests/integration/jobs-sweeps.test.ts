import { describe, expect, test } from "vitest";
import { HANDLERS } from "@/worker/registry";
import { SCHEDULES } from "@/lib/jobs/queues";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";
import { createForm } from "../helpers/forms";
import { runJob, type JobRow } from "../helpers/jobs";
import { waitFor } from "../helpers/wait-for";
import { setupWorkers } from "../helpers/workers";

const db = setupTestDatabase();
const workers = setupWorkers(db);

const sweepJob = (name: string): JobRow => ({
  id: "00000000-0000-4000-8000-000000000000",
  name,
  state: "active",
  data: {},
  retry_count: 0,
  retry_limit: 1,
  output: null,
});

describe("jobs: scheduled sweeps", () => {
  test("a worker registers the three sweeps on the engine's cron", async () => {
    await workers.inProcess([]);
    await waitFor(
      async () => (await db.sql`select count(*)::int as n from pgboss.schedule`)[0].n >= SCHEDULES.length,
      "the schedules registered",
    );
    const rows = await db.sql`select name, cron from pgboss.schedule order by name`;
    expect(rows.map((r) => ({ name: r.name, cron: r.cron }))).toEqual(
      SCHEDULES.map((s) => ({ name: s.queue, cron: s.cron })).sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  test("4.2.1 rate-limit sweep: hits older than an hour go, recent ones stay", async () => {
    await db.sql`insert into rate_limit_hits (key, hit_at)
                 select 'sweep-old', now() - interval '2 hours' from generate_series(1, 25)`;
    await db.sql`insert into rate_limit_hits (key, hit_at) values ('sweep-new', now())`;
    await runJob(HANDLERS["sweep-rate-limit-hits"], sweepJob("sweep-rate-limit-hits"));
    const rows = await db.sql`select key from rate_limit_hits where key like 'sweep-%'`;
    expect(rows.map((r) => r.key)).toEqual(["sweep-new"]);
  });

  test("docs/api.md: the same sweep removes Idempotency-Key answers older than 24 hours, recent ones stay", async () => {
    const ws = await createWorkspace(db.sql);
    const [key] = await db.sql`
      insert into api_keys (workspace_id, name, key_hash) values (${ws.id}, 'Sweep', repeat('b', 64)) returning id`;
    await db.sql`insert into api_idempotency_keys (api_key_id, idempotency_key, workspace_id, fingerprint, status, created_at)
                 values (${key.id}, 'old', ${ws.id}, repeat('a', 64), 201, now() - interval '25 hours'),
                        (${key.id}, 'new', ${ws.id}, repeat('a', 64), 201, now() - interval '23 hours')`;
    await runJob(HANDLERS["sweep-rate-limit-hits"], sweepJob("sweep-rate-limit-hits"));
    const rows = await db.sql`select idempotency_key from api_idempotency_keys where api_key_id = ${key.id}`;
    expect(rows.map((r) => r.idempotency_key)).toEqual(["new"]);
  });

  test("expired pending submissions: gone a week after their link expired, the others stay", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const stage = (token: string, expires: string) => db.sql`
      insert into pending_form_submissions (workspace_id, form_id, email, payload, token, expires_at)
      values (${ws.id}, ${form.id}, ${`${token}@example.test`}, '{}', ${token}, now() + ${expires}::interval)`;
    await stage("long-expired", "-8 days");
    await stage("just-expired", "-1 day");
    await stage("live", "1 day");
    await runJob(HANDLERS["sweep-pending-submissions"], sweepJob("sweep-pending-submissions"));
    const rows =
      await db.sql`select token from pending_form_submissions where workspace_id = ${ws.id} order by token`;
    expect(rows.map((r) => r.token)).toEqual(["just-expired", "live"]);
  });

  test("inbox retention: finished deliveries older than the retention go; failed, dead and recent ones stay", async () => {
    const keep = async (eventId: string, status: string, age: string) =>
      db.sql`insert into webhook_inbox (provider, event_id, event_type, payload, status, received_at)
             values ('email', ${eventId}, 'x', '{}', ${status}, now() - ${age}::interval)`;
    await keep("sweep-done-old", "done", "40 days");
    await keep("sweep-ignored-old", "ignored", "40 days");
    await keep("sweep-dead-old", "dead", "40 days");
    await keep("sweep-failed-old", "failed", "40 days");
    await keep("sweep-done-new", "done", "1 day");
    await runJob(HANDLERS["sweep-webhook-inbox"], sweepJob("sweep-webhook-inbox"));
    const rows =
      await db.sql`select event_id from webhook_inbox where event_id like 'sweep-%' order by event_id`;
    expect(rows.map((r) => r.event_id)).toEqual(["sweep-dead-old", "sweep-done-new", "sweep-failed-old"]);
  });
});
