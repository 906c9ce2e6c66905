import { afterEach, describe, expect, test } from "vitest";
import * as broadcastsApi from "@/lib/api/v1/broadcasts";
import { withService, withUser } from "@/lib/db/doors";
import { abAssignment } from "@/lib/email/ab-split";
import { saveAbTest, type AbTest } from "@/lib/email/ab-test";
import { audienceSchema } from "@/lib/email/broadcast-audience";
import { createBroadcast } from "@/lib/email/broadcasts";
import { broadcastProgress } from "@/lib/email/send-broadcast";
import { broadcastSuppressionCounts, listSuppressions } from "@/lib/email/broadcast-suppressions";
import { controlBroadcast } from "@/lib/email/control-broadcast";
import { decideAbTest } from "@/lib/email/flows/decide-ab-test";
import { runBroadcast } from "@/lib/email/flows/run-broadcast";
import { ingestEmailEvent } from "@/lib/email/ingest-email-event";
import { startFakeResend, type FakeResend } from "../fakes/resend";
import { apiKey, call, handlerOf } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace, unique } from "../helpers/factories";
import { jobsOf } from "../helpers/jobs";
import { waitFor } from "../helpers/wait-for";
import { setupWorkers } from "../helpers/workers";

/**
 * A/B tests of broadcasts (docs/decisions.md, "A/B tests of broadcasts"): the test share, split by
 * a hash of contact and broadcast, gets the variants first; at the decision time the winner by
 * human opens (machine opens excluded) goes to the rest through the same claim, exactly once; a
 * tie or too few events keeps variant A and says so.
 */
const db = setupTestDatabase();
const workers = setupWorkers(db);

let resend: FakeResend | undefined;
afterEach(async () => {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  await resend?.stop();
  resend = undefined;
});
async function useResend() {
  resend = await startFakeResend();
  Object.assign(process.env, { RESEND_API_KEY: "re_test_ab", RESEND_BASE_URL: resend.url });
  return resend;
}

const AUDIENCE = 200;
const SHARE = 50;

const TEST: AbTest = {
  share: SHARE,
  metric: "opens",
  decideAfterHours: 4,
  variants: [
    { subject: "Subject A", preheader: "", senderName: "" },
    { subject: "Subject B", preheader: "Only this week", senderName: "Ada at the Club" },
  ],
};

async function abBroadcast(abTest: AbTest = TEST) {
  const ws = await createWorkspace(db.sql);
  await db.sql`update workspaces set email_tracking_enabled = true where id = ${ws.id}`;
  await db.sql`
    insert into contacts (workspace_id, email, is_subscribed)
    select ${ws.id}, 'ab' || g || '-' || ${unique("x")} || '@example.test', true
    from generate_series(1, ${AUDIENCE}) g`;
  const id = await withUser(ws.owner.claims, async (tx) => {
    const { id } = await createBroadcast(tx, {
      workspaceId: ws.id,
      createdBy: ws.owner.id,
      subject: "The broadcast's own subject",
      body: "Hello {{unsubscribe_url}}",
      audience: audienceSchema.parse({}),
    });
    await saveAbTest(tx, { workspaceId: ws.id, broadcastId: id, abTest });
    return id;
  });
  const input = { workspaceId: ws.id, broadcastId: id };
  await withService((tx) => controlBroadcast(tx, { ...input, control: "start" }));
  return { ws, input };
}

const sendsOf = (broadcastId: string) =>
  db.sql<
    {
      contact_id: string;
      to_email: string;
      subject: string;
      variant: number;
      status: string;
      provider_message_id: string;
      sent_at: Date;
      html: string;
      created_at: Date;
    }[]
  >`
    select contact_id, to_email, subject, variant, status, provider_message_id, sent_at, html, created_at
    from email_sends where broadcast_id = ${broadcastId} order by created_at, id`;

const broadcastOf = async (id: string) =>
  (
    await db.sql`select status, ab_decide_at, ab_decided_at, ab_winner_variant, ab_decision_note
                 from broadcasts where id = ${id}`
  )[0];

/** An open of the send as Resend reports it, `afterSeconds` after it was sent. */
async function open(send: { provider_message_id: string; sent_at: Date }, afterSeconds: number) {
  const at = new Date(new Date(send.sent_at).getTime() + afterSeconds * 1000);
  await withService((tx) =>
    ingestEmailEvent(tx, {
      eventId: unique("svix"),
      event: {
        type: "email.opened",
        created_at: at.toISOString(),
        data: { email_id: send.provider_message_id },
      },
      now: new Date(at.getTime() + 1000), // the clock moved: the event arrives just after it happened
    }),
  );
}

const afterDecideTime = async (id: string) =>
  new Date(new Date((await broadcastOf(id)).ab_decide_at).getTime() + 1000);

describe("A/B tests of broadcasts", () => {
  test("only the test share is sent first, split by the hash, each email with its variant's subject, preheader and sender name", async () => {
    const fake = await useResend();
    const { ws, input } = await abBroadcast();
    expect((await runBroadcast(input)).status).toBe("done");

    const sends = await sendsOf(input.broadcastId);
    const contacts = await db.sql<{ id: string }[]>`select id from contacts where workspace_id = ${ws.id}`;
    const expected = new Map(
      contacts
        .map((c) => [c.id, abAssignment(c.id, input.broadcastId, SHARE, 2)] as const)
        .filter(([, a]) => a.inTest),
    );
    // the hash in SQL is the hash in TypeScript: exactly the contacts it puts in the test, each in its variant
    expect(sends.length).toBe(expected.size);
    for (const s of sends) expect(s.variant).toBe(expected.get(s.contact_id)?.variant);
    expect(sends.length).toBeGreaterThan(AUDIENCE * 0.3);
    expect(sends.length).toBeLessThan(AUDIENCE * 0.7);

    // what the fake Resend received: each recipient once, with its variant's subject and sender name
    expect(fake.sent).toHaveLength(sends.length);
    const byAddress = new Map(fake.sent.map((e) => [e.to as string, e]));
    for (const s of sends) {
      const email = byAddress.get(s.to_email)!;
      expect(email.subject).toBe(s.variant === 0 ? "Subject A" : "Subject B");
      expect(s.subject).toBe(email.subject);
      if (s.variant === 1) {
        expect(email.from).toMatch(/^"Ada at the Club" </);
        expect(email.html).toContain("Only this week");
      } else {
        expect(email.from).not.toContain("Ada at the Club");
        expect(email.html).not.toContain("Only this week");
      }
    }
    expect(new Set(sends.map((s) => s.variant))).toEqual(new Set([0, 1]));

    // the broadcast waits for its decision: still sending, a decision time, a delayed job for it
    const b = await broadcastOf(input.broadcastId);
    expect(b.status).toBe("sending");
    expect(b.ab_decided_at).toBeNull();
    const decideAt = new Date(b.ab_decide_at).getTime();
    expect(decideAt - Date.now()).toBeGreaterThan(3.9 * 3_600_000);
    const jobs = (await jobsOf(db.sql, ws.id)).filter((j) => j.name === "broadcast-ab-decision");
    expect(jobs).toHaveLength(1);

    // the page's progress: the test share processed, the rest of the audience still to go
    const progress = await withUser(ws.owner.claims, (tx) => broadcastProgress(tx, input));
    expect(progress).toMatchObject({
      status: "sending",
      processed: sends.length,
      remaining: AUDIENCE - sends.length,
      done: false,
    });

    // another run before the decision sends nothing more
    expect((await runBroadcast(input)).status).toBe("done");
    expect(fake.sent).toHaveLength(sends.length);
    expect((await broadcastOf(input.broadcastId)).ab_decide_at).toEqual(b.ab_decide_at);
  });

  test("at the decision time the winner by human opens (B; A's machine opens do not count) goes to the rest exactly once", async () => {
    const fake = await useResend();
    const { input } = await abBroadcast();
    await runBroadcast(input);
    const test = await sendsOf(input.broadcastId);
    const a = test.filter((s) => s.variant === 0);
    const b = test.filter((s) => s.variant === 1);
    // every A recipient's open is a machine's (within seconds of delivery); 25 of B's are people's
    for (const s of a) await open(s, 2);
    for (const s of b.slice(0, 25)) await open(s, 3600);

    // A's opens were recorded, as a machine's
    const [machine] = await db.sql`
      select count(*) filter (where is_machine)::int as machine, count(*)::int as opens
      from email_events where broadcast_id = ${input.broadcastId} and email_send_id in (
        select id from email_sends where broadcast_id = ${input.broadcastId} and variant = 0)`;
    expect(machine).toEqual({ machine: a.length, opens: a.length });

    // not before its time
    expect(await decideAbTest(input, new Date())).toMatchObject({ status: "retry" });
    expect((await broadcastOf(input.broadcastId)).ab_decided_at).toBeNull();

    const later = await afterDecideTime(input.broadcastId);
    const decided = await decideAbTest(input, later);
    expect(decided).toMatchObject({ status: "done", output: { decided: true, winner: 1 } });
    expect(await decideAbTest(input, later)).toMatchObject({
      status: "done",
      output: { decided: false, why: "already decided" },
    });
    const row = await broadcastOf(input.broadcastId);
    expect(row.ab_winner_variant).toBe(1);
    expect(row.ab_decision_note).toMatch(/^Variant B won by human opens/);

    // the rest, through the broadcast job's claim (twice: the second finds nothing)
    expect((await runBroadcast(input)).status).toBe("done");
    expect((await runBroadcast(input)).status).toBe("done");
    const all = await sendsOf(input.broadcastId);
    expect(all).toHaveLength(AUDIENCE);
    expect(new Set(all.map((s) => s.contact_id)).size).toBe(AUDIENCE);
    const rest = all.slice(test.length);
    expect(rest.every((s) => s.variant === 1 && s.subject === "Subject B")).toBe(true);
    // the fake received one email per recipient, none twice; the rest all with B's subject
    expect(fake.sent).toHaveLength(AUDIENCE);
    expect(new Set(fake.sent.map((e) => e.to as string)).size).toBe(AUDIENCE);
    const restAddresses = new Set(rest.map((s) => s.to_email));
    for (const e of fake.sent.filter((e) => restAddresses.has(e.to as string))) {
      expect(e.subject).toBe("Subject B");
      expect(e.from).toMatch(/^"Ada at the Club" </);
    }
    expect((await broadcastOf(input.broadcastId)).status).toBe("sent");
  });

  test("too few events keep variant A and say so; the rest gets A", async () => {
    const fake = await useResend();
    const { input } = await abBroadcast();
    await runBroadcast(input);
    const test = await sendsOf(input.broadcastId);
    for (const s of test.filter((s) => s.variant === 1).slice(0, 5)) await open(s, 3600);

    const decided = await decideAbTest(input, await afterDecideTime(input.broadcastId));
    expect(decided).toMatchObject({ status: "done", output: { decided: true, winner: 0 } });
    expect((await broadcastOf(input.broadcastId)).ab_decision_note).toBe(
      "Kept variant A: too few events (5 human opens in all, at least 20 needed).",
    );
    await runBroadcast(input);
    const rest = (await sendsOf(input.broadcastId)).slice(test.length);
    expect(rest.length).toBe(AUDIENCE - test.length);
    expect(rest.every((s) => s.variant === 0 && s.subject === "Subject A")).toBe(true);
    expect(fake.sent).toHaveLength(AUDIENCE);
  });

  test("a near tie (intervals overlap) keeps variant A and says so", async () => {
    await useResend();
    const { input } = await abBroadcast();
    await runBroadcast(input);
    const test = await sendsOf(input.broadcastId);
    for (const s of test.filter((s) => s.variant === 0).slice(0, 12)) await open(s, 3600);
    for (const s of test.filter((s) => s.variant === 1).slice(0, 13)) await open(s, 3600);

    const decided = await decideAbTest(input, await afterDecideTime(input.broadcastId));
    expect(decided).toMatchObject({ status: "done", output: { decided: true, winner: 0 } });
    expect((await broadcastOf(input.broadcastId)).ab_decision_note).toMatch(
      /^Kept variant A: (no clear winner|a tie)/,
    );
  });

  test("through the job engine: the delayed decision job, its time moved to now, decides once and the broadcast job sends the rest", async () => {
    // the dev outbox (no Resend key): stored is delivered
    const { ws, input } = await abBroadcast({ ...TEST, metric: "clicks" });
    await runBroadcast(input);
    const test = await sendsOf(input.broadcastId);
    expect(test.every((s) => s.status === "outbox")).toBe(true);
    // the clock moved past the decision time: the broadcast's and its delayed job's
    await db.sql`update broadcasts set ab_decide_at = now() - interval '1 second' where id = ${input.broadcastId}`;
    await db.sql`update pgboss.job set start_after = now()
                 where name = 'broadcast-ab-decision' and data->>'broadcastId' = ${input.broadcastId}`;
    await workers.inProcess(["broadcast-ab-decision", "broadcast"]);
    await waitFor(
      async () => (await broadcastOf(input.broadcastId)).status === "sent",
      "the rest sent",
      30_000,
    );
    const row = await broadcastOf(input.broadcastId);
    expect(row).toMatchObject({ ab_winner_variant: 0 });
    expect(row.ab_decision_note).toBe(
      "Kept variant A: too few events (0 human clicks in all, at least 20 needed).",
    );
    const all = await sendsOf(input.broadcastId);
    expect(all).toHaveLength(AUDIENCE);
    expect(new Set(all.map((s) => s.contact_id)).size).toBe(AUDIENCE);
    await waitFor(
      async () => (await jobsOf(db.sql, ws.id)).every((j) => j.state === "completed"),
      "the jobs done",
      10_000,
    );
    const jobs = (await jobsOf(db.sql, ws.id)).map((j) => j.name).sort();
    expect(jobs).toEqual(["broadcast", "broadcast", "broadcast-ab-decision"]); // start, decision, rest
  }, 60_000);

  test("by revenue: what B's recipients paid after their email, net of refunds, wins", async () => {
    await useResend();
    const { ws, input } = await abBroadcast({ ...TEST, metric: "revenue" });
    await runBroadcast(input);
    const test = await sendsOf(input.broadcastId);
    const pay = async (s: { contact_id: string; sent_at: Date }, amount: number, minutesAfter: number) =>
      db.sql`insert into transactions (workspace_id, contact_id, amount_paid, transaction_date)
             values (${ws.id}, ${s.contact_id}, ${amount},
                     ${new Date(new Date(s.sent_at).getTime() + minutesAfter * 60_000)})`;
    const a = test.filter((s) => s.variant === 0);
    const b = test.filter((s) => s.variant === 1);
    for (const s of a.slice(0, 10)) await pay(s, 10, 30);
    for (const s of a.slice(10, 30)) await pay(s, 500, -60); // before the email: not its doing
    for (const s of b.slice(0, 12)) await pay(s, 40, 30);
    const decided = await decideAbTest(input, await afterDecideTime(input.broadcastId));
    expect(decided).toMatchObject({ status: "done", output: { decided: true, winner: 1 } });
    expect((await broadcastOf(input.broadcastId)).ab_decision_note).toMatch(/^Variant B won by revenue: /);
  });

  test("paused at its decision time with a test email waiting: not decided then; resumed, the email leaves, the decision is enqueued again and the rest follows once", async () => {
    await useResend();
    const { ws, input } = await abBroadcast();
    await runBroadcast(input);
    const test = await sendsOf(input.broadcastId);
    await withService((tx) => controlBroadcast(tx, { ...input, control: "pause" }));
    // one email of the test the provider did not take before the pause
    await db.sql`update email_sends set status = 'queued', provider_message_id = null, lease_until = null
                 where broadcast_id = ${input.broadcastId} and contact_id = ${test[0].contact_id}`;
    await db.sql`update broadcasts set ab_decide_at = now() - interval '1 second' where id = ${input.broadcastId}`;
    expect(await decideAbTest(input)).toMatchObject({
      status: "done",
      output: { decided: false, why: "paused with emails of the test waiting" },
    });
    expect((await broadcastOf(input.broadcastId)).ab_decided_at).toBeNull();

    await withService((tx) => controlBroadcast(tx, { ...input, control: "resume" }));
    await runBroadcast(input);
    const decisions = async () =>
      (await jobsOf(db.sql, ws.id)).filter((j) => j.name === "broadcast-ab-decision").length;
    expect(await decisions()).toBe(2); // the first (done, paused) and the one the resumed run enqueued
    expect(await decideAbTest(input)).toMatchObject({ status: "done", output: { decided: true, winner: 0 } });
    await runBroadcast(input);
    const all = await sendsOf(input.broadcastId);
    expect(all).toHaveLength(AUDIENCE);
    expect(new Set(all.map((s) => s.contact_id)).size).toBe(AUDIENCE);
    expect(all.every((s) => s.status === "sent")).toBe(true);
    expect((await broadcastOf(input.broadcastId)).status).toBe("sent");
  });

  test("a cancelled test is not decided and sends nothing more", async () => {
    const fake = await useResend();
    const { input } = await abBroadcast();
    await runBroadcast(input);
    const sent = fake.sent.length;
    await withService((tx) => controlBroadcast(tx, { ...input, control: "cancel" }));
    const decided = await decideAbTest(input, await afterDecideTime(input.broadcastId));
    expect(decided).toMatchObject({ status: "done", output: { decided: false } });
    await runBroadcast(input);
    expect(fake.sent).toHaveLength(sent);
  });
});

describe("POST /api/v1/broadcasts with an A/B test", () => {
  const create = handlerOf(broadcastsApi.create);
  const post = (key: string, body: unknown) =>
    call(create, { method: "POST", path: "/api/v1/broadcasts", key, body, params: {} });
  const base = { subject: "News", body: "Hello {{unsubscribe_url}}" };
  const variants = (n: number) => Array.from({ length: n }, (_, i) => ({ subject: `Subject ${i}` }));
  const abTest = { share: 20, metric: "clicks", decide_after_hours: 6 };

  test("variants and the test's settings are stored and answered", async () => {
    const ws = await createWorkspace(db.sql);
    const key = (await apiKey(db.sql, ws.id, ["email:write"])).raw;
    const res = await post(key, {
      ...base,
      variants: [{ subject: "A", preheader: "pre", sender_name: "Ada" }, { subject: "B" }],
      ab_test: abTest,
    });
    expect(res.status).toBe(201);
    expect(res.body.ab_test).toMatchObject({
      share: 20,
      metric: "clicks",
      decide_after_hours: 6,
      winner: null,
      variants: [
        { position: 0, subject: "A", preheader: "pre", sender_name: "Ada" },
        { position: 1, subject: "B", preheader: null, sender_name: null },
      ],
    });
    const [row] =
      await db.sql`select ab_test_share, ab_winner_metric from broadcasts where id = ${res.body.id}`;
    expect(row).toEqual({ ab_test_share: 20, ab_winner_metric: "clicks" });
  });

  test.each([
    ["1 variant", { variants: variants(1), ab_test: abTest }, "variants"],
    ["6 variants", { variants: variants(6), ab_test: abTest }, "variants"],
    ["share 60", { variants: variants(2), ab_test: { ...abTest, share: 60 } }, "ab_test.share"],
    ["share 5", { variants: variants(2), ab_test: { ...abTest, share: 5 } }, "ab_test.share"],
    [
      "an unknown metric",
      { variants: variants(2), ab_test: { ...abTest, metric: "likes" } },
      "ab_test.metric",
    ],
    [
      "0 hours",
      { variants: variants(2), ab_test: { ...abTest, decide_after_hours: 0 } },
      "ab_test.decide_after_hours",
    ],
    [
      "an empty variant subject",
      { variants: [{ subject: "" }, { subject: "B" }], ab_test: abTest },
      "variants.0.subject",
    ],
    ["variants without settings", { variants: variants(2) }, "ab_test"],
    ["settings without variants", { ab_test: abTest }, "variants"],
  ])("%s is 400 naming the field, and nothing is stored", async (_name, extra, field) => {
    const ws = await createWorkspace(db.sql);
    const key = (await apiKey(db.sql, ws.id, ["email:write"])).raw;
    const res = await post(key, { ...base, ...extra });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(Object.keys(res.body.error.fields)).toContain(field);
    expect((await db.sql`select count(*)::int as n from broadcasts where workspace_id = ${ws.id}`)[0].n).toBe(
      0,
    );
    expect(
      (await db.sql`select count(*)::int as n from broadcast_variants where workspace_id = ${ws.id}`)[0].n,
    ).toBe(0);
  });
});

describe("the broadcast report's suppressions (spec 6.1: bounces and complaints suppress)", () => {
  const event = (type: string, send: { provider_message_id: string }) =>
    withService((tx) =>
      ingestEmailEvent(tx, {
        eventId: unique("svix"),
        event: { type, created_at: new Date().toISOString(), data: { email_id: send.provider_message_id } },
      }),
    );

  test("counts the suppressions this broadcast's hard bounces and complaints made, and lists them by broadcast and reason", async () => {
    await useResend();
    const ws = await createWorkspace(db.sql);
    await db.sql`
      insert into contacts (workspace_id, email, is_subscribed)
      select ${ws.id}, 'sup' || g || '-' || ${unique("x")} || '@example.test', true from generate_series(1, 6) g`;
    const broadcast = async () => {
      const { id } = await withUser(ws.owner.claims, (tx) =>
        createBroadcast(tx, {
          workspaceId: ws.id,
          createdBy: ws.owner.id,
          subject: "News",
          body: "Hello {{unsubscribe_url}}",
          audience: audienceSchema.parse({}),
        }),
      );
      const input = { workspaceId: ws.id, broadcastId: id };
      await withService((tx) => controlBroadcast(tx, { ...input, control: "start" }));
      await runBroadcast(input);
      return input;
    };
    const first = await broadcast();
    const sends = await sendsOf(first.broadcastId);
    expect(sends).toHaveLength(6);
    await event("email.bounced", sends[0]);
    await event("email.bounced", sends[1]);
    await event("email.complained", sends[2]);
    await event("email.delivered", sends[3]);
    // a manual block of another recipient is not this broadcast's doing
    await db.sql`insert into contact_suppressions (workspace_id, contact_id, reason)
                 values (${ws.id}, ${sends[4].contact_id}, 'manual')`;
    // another broadcast's bounce is counted on that broadcast only
    const second = await broadcast();
    // (the contacts suppressed above are skipped by it)
    const others = (await sendsOf(second.broadcastId)).filter((s) => s.status === "sent");
    expect(others).toHaveLength(2);
    await event("email.bounced", others[0]);

    const asMember = <T>(fn: Parameters<typeof withUser<T>>[1]) => withUser(ws.owner.claims, fn);
    expect(await asMember((tx) => broadcastSuppressionCounts(tx, first))).toEqual({
      bounce: 2,
      complaint: 1,
    });
    expect(await asMember((tx) => broadcastSuppressionCounts(tx, second))).toEqual({
      bounce: 1,
      complaint: 0,
    });
    const listed = await asMember((tx) =>
      listSuppressions(tx, { workspaceId: ws.id, broadcastId: first.broadcastId }),
    );
    expect(listed.map((r) => [r.email, r.reason]).sort()).toEqual(
      [
        [sends[0].to_email, "bounce"],
        [sends[1].to_email, "bounce"],
        [sends[2].to_email, "complaint"],
      ].sort(),
    );
    const bounces = await asMember((tx) =>
      listSuppressions(tx, { workspaceId: ws.id, broadcastId: first.broadcastId, reason: "bounce" }),
    );
    expect(bounces).toHaveLength(2);
    // unfiltered: every suppression of the workspace, the manual one too
    expect(await asMember((tx) => listSuppressions(tx, { workspaceId: ws.id }))).toHaveLength(5);
    // another workspace's member sees none of them
    const stranger = await createWorkspace(db.sql);
    expect(await withUser(stranger.owner.claims, (tx) => broadcastSuppressionCounts(tx, first))).toEqual({
      bounce: 0,
      complaint: 0,
    });
  });
});
