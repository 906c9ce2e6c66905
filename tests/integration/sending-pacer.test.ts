import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, test } from "vitest";
import { withService, withUser } from "@/lib/db/doors";
import { audienceSchema } from "@/lib/email/broadcast-audience";
import { createBroadcast } from "@/lib/email/broadcasts";
import { controlBroadcast } from "@/lib/email/control-broadcast";
import { deliverEmail } from "@/lib/email/flows/deliver-email";
import { pacerId } from "@/lib/email/flows/pace-provider";
import { runBroadcast } from "@/lib/email/flows/run-broadcast";
import { sendEmail } from "@/lib/email/send-email";
import { enqueue } from "@/lib/jobs/enqueue";
import { startFakeResend, type FakeResend } from "../fakes/resend";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";
import { waitFor } from "../helpers/wait-for";
import { setupWorkers } from "../helpers/workers";

/**
 * Sending at the provider's limit (DESIGN section 9, "Sending"; docs/decisions.md, "One pacer per
 * Resend key"): the fake Resend limits as Resend does (429 `rate_limit_exceeded` with
 * `retry-after`, `ratelimit-*` on every answer), and nothing the limit answers is lost, failed or
 * sent twice.
 */
const db = setupTestDatabase();
const workers = setupWorkers(db);

let resend: FakeResend | undefined;
/** The Resend env of one test: a key of its own, so its pacer row is its own. */
async function useResend(options: { requestsPerSecond: number; configured?: number }) {
  resend = await startFakeResend({ requestsPerSecond: options.requestsPerSecond });
  const env = {
    RESEND_API_KEY: `re_test_${randomUUID().slice(0, 8)}`,
    RESEND_BASE_URL: resend.url,
    RESEND_REQUESTS_PER_SECOND: String(options.configured ?? options.requestsPerSecond),
  };
  Object.assign(process.env, env);
  return { fake: resend, env };
}
const configuredRate = process.env.RESEND_REQUESTS_PER_SECOND;
afterEach(async () => {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  if (configuredRate === undefined) delete process.env.RESEND_REQUESTS_PER_SECOND;
  else process.env.RESEND_REQUESTS_PER_SECOND = configuredRate;
  await resend?.stop();
  resend = undefined;
});

/** A workspace with `size` subscribed contacts and a broadcast to all of them, started. */
async function startedBroadcast(size: number) {
  const ws = await createWorkspace(db.sql);
  await db.sql`
    insert into contacts (workspace_id, email, is_subscribed)
    select ${ws.id}, 'r' || g || '-' || ${ws.id.slice(0, 8)} || '@example.test', true
    from generate_series(1, ${size}) g`;
  const { id } = await withUser(ws.owner.claims, (tx) =>
    createBroadcast(tx, {
      workspaceId: ws.id,
      createdBy: ws.owner.id,
      subject: "News",
      body: "Hello!\n\nLeave: {{unsubscribe_url}}",
      audience: audienceSchema.parse({}),
    }),
  );
  const input = { workspaceId: ws.id, broadcastId: id };
  expect(await withService((tx) => controlBroadcast(tx, { ...input, control: "start" }))).toBe(true);
  return input;
}

const countsOf = async (broadcastId: string) =>
  (
    await db.sql`select count(*)::int as n, count(distinct contact_id)::int as contacts,
                        count(*) filter (where status = 'sent')::int as sent,
                        count(*) filter (where status = 'queued')::int as queued,
                        count(*) filter (where status = 'failed')::int as failed
                 from email_sends where broadcast_id = ${broadcastId}`
  )[0];

const broadcastRow = async (broadcastId: string) =>
  (await db.sql`select status, paused_reason from broadcasts where id = ${broadcastId}`)[0];

/** The pacer row of this test's key. */
const pacerRow = async () =>
  (
    await db.sql`select provider_limit, turns::int, limited::int from provider_pacers
                 where id = ${pacerId(process.env.RESEND_API_KEY!)}`
  )[0];

/** What the fake delivered: each address once, none twice. */
function expectDeliveredOnce(fake: FakeResend, size: number) {
  const addresses = fake.sent.map((e) => String(e.to));
  expect(new Set(addresses).size).toBe(size);
  expect(addresses.length).toBe(size);
}

describe("sending at the provider's limit", () => {
  test("a 5,000-recipient broadcast through Resend limited to 2 requests per second, whose team has spent its rate, reaches everyone exactly once with none failed, two workers sending", async () => {
    const { fake, env } = await useResend({ requestsPerSecond: 2 });
    const input = await startedBroadcast(5_000);
    // a second job on the same broadcast: both workers claim and send from it at once
    await withService((tx) => enqueue(tx, { queue: "broadcast", data: input }));
    workers.spawnWorker(env);
    workers.spawnWorker(env);
    // once sending has begun, other senders of the team spend three seconds of its rate: the next
    // requests meet 429 with retry-after
    await waitFor(async () => fake.requests.length > 0, "the first request", 60_000);
    fake.spend(6);
    await waitFor(
      async () => (await broadcastRow(input.broadcastId)).status === "sent",
      "the broadcast sent",
      240_000,
    );

    expect(await countsOf(input.broadcastId)).toEqual({
      n: 5_000,
      contacts: 5_000,
      sent: 5_000,
      queued: 0,
      failed: 0,
    });
    expectDeliveredOnce(fake, 5_000);
    // the 429s were met and waited out together: without the pacer, eight calls in flight at twice
    // the rate meet one on most requests
    expect(fake.limited).toBeGreaterThan(0);
    expect(fake.limited).toBeLessThanOrEqual(8);
    expect(await pacerRow()).toMatchObject({ provider_limit: 2, limited: fake.limited });
    expect((await pacerRow()).turns).toBeGreaterThanOrEqual(50 + fake.limited);
  }, 300_000);

  test("a provider limit lower than RESEND_REQUESTS_PER_SECOND: ratelimit-limit is kept to after the first answers", async () => {
    const { fake } = await useResend({ requestsPerSecond: 2, configured: 10 });
    const input = await startedBroadcast(2_000);
    await workers.inProcess(["broadcast"]);
    await waitFor(
      async () => (await broadcastRow(input.broadcastId)).status === "sent",
      "the broadcast sent",
      120_000,
    );

    expect(await countsOf(input.broadcastId)).toEqual({
      n: 2_000,
      contacts: 2_000,
      sent: 2_000,
      queued: 0,
      failed: 0,
    });
    expectDeliveredOnce(fake, 2_000);
    // the first turns, taken at 10 a second before any answer, may meet 429; none after the limit is known
    expect(fake.limited).toBeLessThanOrEqual(4);
    expect((await pacerRow()).provider_limit).toBe(2);
  }, 180_000);

  test("a provider outage past the last attempt pauses the broadcast with its reason, fails nothing, and resuming sends the rest once", async () => {
    const { fake } = await useResend({ requestsPerSecond: 100 });
    const input = await startedBroadcast(1_000);
    fake.failNext(1_000); // 500s
    expect(await runBroadcast(input, undefined, { lastAttempt: true })).toEqual({
      status: "done",
      output: { batches: 0, paused: true },
    });
    const paused = await broadcastRow(input.broadcastId);
    expect(paused.status).toBe("paused");
    expect(paused.paused_reason).toMatch(
      /^Resend did not take the mail after every retry \(application_error: Fake failure\)/,
    );
    const atPause = await countsOf(input.broadcastId);
    expect(atPause).toMatchObject({ sent: 0, failed: 0 });
    expect(atPause.queued).toBeGreaterThan(0);
    expect(fake.sent).toHaveLength(0);

    fake.failNext(0);
    expect(await withService((tx) => controlBroadcast(tx, { ...input, control: "resume" }))).toBe(true);
    expect(await broadcastRow(input.broadcastId)).toEqual({ status: "sending", paused_reason: null });
    expect((await runBroadcast(input)).status).toBe("done");
    expect(await broadcastRow(input.broadcastId)).toEqual({ status: "sent", paused_reason: null });
    expect(await countsOf(input.broadcastId)).toEqual({
      n: 1_000,
      contacts: 1_000,
      sent: 1_000,
      queued: 0,
      failed: 0,
    });
    expectDeliveredOnce(fake, 1_000);
  }, 120_000);

  test("a batch Resend refuses for good is failed with the provider's reason and the broadcast goes on", async () => {
    const { fake } = await useResend({ requestsPerSecond: 100 });
    const input = await startedBroadcast(1_000);
    fake.failNext(1, 422);
    expect((await runBroadcast(input)).status).toBe("done");
    expect(await countsOf(input.broadcastId)).toEqual({
      n: 1_000,
      contacts: 1_000,
      sent: 900,
      queued: 0,
      failed: 100,
    });
    const [reason] = await db.sql`select distinct skip_reason from email_sends
                                  where broadcast_id = ${input.broadcastId} and status = 'failed'`;
    expect(reason.skip_reason).toMatch(/^validation_error: Invalid `to` field/);
    expect((await broadcastRow(input.broadcastId)).status).toBe("sent");
  }, 120_000);

  test("a single email while the team has spent its rate waits its turn and is sent on its first attempt", async () => {
    const { fake } = await useResend({ requestsPerSecond: 2 });
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const queued = await withService((tx) =>
      sendEmail(tx, {
        workspaceId: ws.id,
        contactId: c.id,
        to: c.email,
        kind: "transactional",
        subject: "Your ticket",
        html: "<p>See you there</p>",
        text: "See you there",
      }),
    );
    fake.spend(4);
    expect(await deliverEmail(queued.id)).toEqual({ status: "done", output: { outcome: "sent" } });
    expect(fake.limited).toBeGreaterThanOrEqual(1);
    expect(fake.sent.filter((e) => e.to === c.email)).toHaveLength(1);
    const [row] = await db.sql`select status from email_sends where id = ${queued.id}`;
    expect(row.status).toBe("sent");
  }, 60_000);
});
