import { describe, expect, test } from "vitest";
import { withService, withUser } from "@/lib/db/doors";
import { audienceSchema } from "@/lib/email/broadcast-audience";
import { createBroadcast } from "@/lib/email/broadcasts";
import { controlBroadcast } from "@/lib/email/control-broadcast";
import { broadcastProgress } from "@/lib/email/send-broadcast";
import { enqueue } from "@/lib/jobs/enqueue";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";
import { jobsOf } from "../helpers/jobs";
import { milestone, waitFor } from "../helpers/wait-for";
import { onEmbeddedService } from "../helpers/embedded-harness";
import { setupWorkers } from "../helpers/workers";
import { startFakeResend } from "../fakes/resend";

const db = setupTestDatabase();
const workers = setupWorkers(db);

const AUDIENCE = 2000;
const ELIGIBLE = 1800; // every tenth contact has not opted in

/** A workspace with 2,000 contacts and a broadcast to all of them, started (its job enqueued). */
async function startedBroadcast() {
  const ws = await createWorkspace(sql());
  await sql()`
    insert into contacts (workspace_id, email, is_subscribed)
    select ${ws.id}, 'c' || g || '-' || ${ws.id.slice(0, 8)} || '@example.test', g % 10 <> 0
    from generate_series(1, ${AUDIENCE}) g`;
  const { id } = await withUser(ws.owner.claims, (tx) =>
    createBroadcast(tx, {
      workspaceId: ws.id,
      createdBy: ws.owner.id,
      subject: "News",
      body: "Hello!\n\nLeave: {{unsubscribe_url}}",
      audience: audienceSchema.parse({}),
    }),
  );
  expect(
    await withService((tx) =>
      controlBroadcast(tx, { workspaceId: ws.id, broadcastId: id, control: "start" }),
    ),
  ).toBe(true);
  return { ws, broadcastId: id };
}

/** The connection tests arrange and assert with: the test database, or the embedded service's. */
let sql = () => db.sql;

const sendsOf = async (broadcastId: string) =>
  (
    await sql()`select count(*)::int as n, count(distinct contact_id)::int as contacts,
                        count(*) filter (where status = 'outbox')::int as delivered,
                        count(*) filter (where status = 'skipped')::int as skipped
                 from email_sends where broadcast_id = ${broadcastId}`
  )[0];

const statusOf = async (broadcastId: string) =>
  (await sql()`select status from broadcasts where id = ${broadcastId}`)[0].status as string;

/** Every contact of the audience has exactly one row: eligible ones one email, the others skipped. */
async function expectExactlyOnce(broadcastId: string) {
  expect(await sendsOf(broadcastId)).toEqual({
    n: AUDIENCE,
    contacts: AUDIENCE,
    delivered: ELIGIBLE,
    skipped: AUDIENCE - ELIGIBLE,
  });
}

/**
 * On the embedded database the worker and PGlite live in one process (npm start), so killing the
 * worker kills the database with it: the service is killed with SIGKILL mid-broadcast and started
 * again on the same data directory.
 */
function killEmbeddedService() {
  return onEmbeddedService(
    db,
    workers,
    (conn) => (sql = () => conn),
    async (service) => {
      const first = await service.start();
      const { broadcastId } = await startedBroadcast();
      await waitFor(async () => (await sendsOf(broadcastId)).n > 0, "the first batch sent", 60_000);
      const atKill = await sendsOf(broadcastId);
      const killed = new Promise((resolve) => first.once("exit", resolve));
      first.kill("SIGKILL");
      await killed;
      expect(atKill.n).toBeLessThan(AUDIENCE); // killed in the middle, not after the end
      await service.detach();

      await service.start(); // the restart
      await waitFor(async () => (await statusOf(broadcastId)) === "sent", "the broadcast finished", 120_000);
      await expectExactlyOnce(broadcastId);
    },
  );
}

describe("jobs: broadcasts run as a job", () => {
  test("a worker killed with SIGKILL in the middle of a 2,000-contact broadcast: after a restart every eligible contact has exactly one email", async () => {
    if (db.kind === "pglite") return killEmbeddedService();
    const { ws, broadcastId } = await startedBroadcast();
    // The worker is held in the middle: the contact after the first half (in the job's id order)
    // is locked FOR UPDATE, so the batch that inserts its email (the foreign key's FOR KEY SHARE)
    // waits with half the audience committed. Killing on "a first batch seen" instead raced a
    // fast worker through the pooler to the end of the broadcast.
    const half = AUDIENCE / 2;
    const held = milestone();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const holder = db.sql.begin(async (tx) => {
      // (the row picked in a subquery: FOR UPDATE beside OFFSET would lock every row skipped too)
      await tx`select id from contacts where id = (
                 select id from contacts where workspace_id = ${ws.id} order by id offset ${half} limit 1)
               for update`;
      held.reached();
      await released;
    });
    try {
      await held.passed;
      const first = workers.spawnWorker();
      await waitFor(async () => (await sendsOf(broadcastId)).n === half, "half the audience sent", 60_000);
      const killed = new Promise((resolve) => first.once("exit", resolve));
      first.kill("SIGKILL");
      await killed;
    } finally {
      release();
      await holder;
    }
    const atKill = await sendsOf(broadcastId);
    expect(atKill.n).toBe(half); // killed in the middle: the held batch never committed
    expect(await statusOf(broadcastId)).toBe("sending");

    workers.spawnWorker(); // the restart: the dead worker's job is retried
    await waitFor(async () => (await statusOf(broadcastId)) === "sent", "the broadcast finished", 120_000);
    await expectExactlyOnce(broadcastId);
    // on PGlite the service (web, worker and database in one process) boots twice
  }, 300_000);

  test("two workers at once on one broadcast send nothing twice", async () => {
    const { ws, broadcastId } = await startedBroadcast();
    // a second job for the same broadcast (as a resume racing the first run would make)
    await withService((tx) => enqueue(tx, { queue: "broadcast", data: { workspaceId: ws.id, broadcastId } }));
    workers.spawnWorker();
    workers.spawnWorker();
    await waitFor(
      async () => (await jobsOf(db.sql, ws.id)).every((j) => j.state === "completed"),
      "both jobs done",
      120_000,
    );
    expect(await statusOf(broadcastId)).toBe("sent");
    await expectExactlyOnce(broadcastId);
  }, 180_000);

  test("pause stops the job between batches and keeps the progress; resume finishes it; cancel ends another", async () => {
    const { ws, broadcastId } = await startedBroadcast();
    const control = (id: string, c: "pause" | "resume" | "cancel") =>
      withService((tx) => controlBroadcast(tx, { workspaceId: ws.id, broadcastId: id, control: c }));
    expect(await control(broadcastId, "pause")).toBe(true);
    await workers.inProcess(["broadcast"]);
    await waitFor(
      async () => (await jobsOf(db.sql, ws.id)).every((j) => j.state === "completed"),
      "the paused job returned",
      60_000,
    );
    expect(await statusOf(broadcastId)).toBe("paused");
    expect(await control(broadcastId, "pause")).toBe(false); // not sending: nothing to pause
    const paused = await withUser(ws.owner.claims, (tx) =>
      broadcastProgress(tx, { workspaceId: ws.id, broadcastId }),
    );
    expect(paused).toMatchObject({ status: "paused", done: false, remaining: AUDIENCE - paused!.processed });

    expect(await control(broadcastId, "resume")).toBe(true);
    await waitFor(
      async () => (await statusOf(broadcastId)) === "sent",
      "the resumed broadcast finished",
      120_000,
    );
    await expectExactlyOnce(broadcastId);

    const other = await startedBroadcast();
    expect(
      await withService((tx) =>
        controlBroadcast(tx, { workspaceId: other.ws.id, broadcastId: other.broadcastId, control: "cancel" }),
      ),
    ).toBe(true);
    // a broadcast id of another workspace changes nothing
    expect(await control(other.broadcastId, "resume")).toBe(false);
    await waitFor(
      async () => (await jobsOf(db.sql, other.ws.id)).every((j) => j.state === "completed"),
      "the cancelled job returned",
      60_000,
    );
    expect(await statusOf(other.broadcastId)).toBe("cancelled");
  }, 240_000);

  test("Resend failing two batch calls: the job retries with backoff and every eligible contact gets one email", async () => {
    const resend = await startFakeResend();
    process.env.RESEND_API_KEY = "re_test";
    process.env.RESEND_BASE_URL = resend.url;
    try {
      const { broadcastId } = await startedBroadcast();
      resend.failNext(2);
      await workers.inProcess(["broadcast"]);
      await waitFor(async () => (await statusOf(broadcastId)) === "sent", "the broadcast finished", 120_000);
      const [counts] = await sql()`
        select count(*)::int as n, count(distinct contact_id)::int as contacts,
               count(*) filter (where status = 'sent')::int as sent,
               count(*) filter (where status in ('failed', 'queued'))::int as undelivered
        from email_sends where broadcast_id = ${broadcastId}`;
      expect(counts).toEqual({ n: AUDIENCE, contacts: AUDIENCE, sent: ELIGIBLE, undelivered: 0 });
    } finally {
      delete process.env.RESEND_API_KEY;
      delete process.env.RESEND_BASE_URL;
      await resend.stop();
    }
  }, 180_000);
});
