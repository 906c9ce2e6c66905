import { describe, expect, test } from "vitest";
import { createCampaignDraft, kickRunner, publishCampaign } from "@/lib/campaigns/campaigns";
import { withService } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { onEmbeddedService } from "../helpers/embedded-harness";
import { createWorkspace } from "../helpers/factories";
import { milestone, waitFor } from "../helpers/wait-for";
import { setupWorkers } from "../helpers/workers";

/**
 * Exactly once per (enrollment, step, version) (docs/decisions.md, "Campaign waits as a due-time
 * index"): a worker killed with SIGKILL in the middle of a send step over many enrollments, and
 * restarted, leaves exactly one email_sends row per enrollment. The held technique is the
 * broadcast test's (tests/integration/jobs-broadcast.test.ts).
 */
const db = setupTestDatabase();
const workers = setupWorkers(db);
/**
 * 10,000 on the real server; the embedded database (one process, one connection) runs 2,000, in
 * batches of 100: it cannot be held in the middle by a lock as the real server is (below), so its kill
 * lands between twenty batches, not after the last of four on a fast run.
 */
const ENROLLMENTS = db.kind === "pglite" ? 2000 : 10_000;
const BATCH = db.kind === "pglite" ? "100" : "500";
process.env.CAMPAIGN_BATCH_SIZE = BATCH;

let sql = () => db.sql;

/** A published one-step campaign and ENROLLMENTS subscribed contacts enrolled in it (not yet run). */
async function enrolledCampaign() {
  const ws = await createWorkspace(sql());
  await sql()`
    insert into contacts (workspace_id, email, is_subscribed)
    select ${ws.id}, 'c' || g || '-' || ${ws.id.slice(0, 8)} || '@example.test', true
    from generate_series(1, ${ENROLLMENTS}) g`;
  const campaign = await withService(async (tx) => {
    const draft = await createCampaignDraft(tx, {
      workspaceId: ws.id,
      name: "Hello",
      steps: [{ id: "hello", type: "send_email", subject: "Hello", body: 'Hello {{first_name|"there"}}' }],
    });
    return publishCampaign(tx, { workspaceId: ws.id, campaignId: draft.id });
  });
  // one statement, one now(): every enrollment is due at the same instant, run in id order
  await sql()`
    insert into campaign_enrollments (workspace_id, campaign_id, contact_id)
    select ${ws.id}, ${campaign.id}, id from contacts where workspace_id = ${ws.id}`;
  return { ws, campaignId: campaign.id };
}

const sendsOf = async (campaignId: string) =>
  (
    await sql()`select count(*)::int as n, count(distinct s.campaign_enrollment_id)::int as enrollments
                 from email_sends s join campaign_enrollments e on e.id = s.campaign_enrollment_id
                 where e.campaign_id = ${campaignId}`
  )[0] as { n: number; enrollments: number };

const activeOf = async (campaignId: string) =>
  (
    await sql()`select count(*)::int as n from campaign_enrollments
                 where campaign_id = ${campaignId} and status = 'active'`
  )[0].n as number;

async function expectExactlyOnce(campaignId: string) {
  expect(await sendsOf(campaignId)).toEqual({ n: ENROLLMENTS, enrollments: ENROLLMENTS });
  const [runs] = await sql()`
    select count(*)::int as n from campaign_step_runs where campaign_id = ${campaignId} and step_id = 'hello' and outcome = 'sent'`;
  expect(runs.n).toBe(ENROLLMENTS);
}

function killEmbeddedService() {
  return onEmbeddedService(
    db,
    workers,
    (conn) => (sql = () => conn),
    async (service) => {
      const first = await service.start();
      const { campaignId } = await enrolledCampaign();
      await withService((tx) => kickRunner(tx));
      await waitFor(async () => (await sendsOf(campaignId)).n > 0, "the first batch sent", 120_000);
      const killed = new Promise((resolve) => first.once("exit", resolve));
      first.kill("SIGKILL");
      await killed;
      await service.detach();
      await service.start(); // the restart
      const atRestart = await sendsOf(campaignId);
      expect(atRestart.n).toBeLessThan(ENROLLMENTS); // killed in the middle, not after the end
      await withService((tx) => kickRunner(tx));
      await waitFor(async () => (await activeOf(campaignId)) === 0, "every enrollment ran", 240_000);
      await expectExactlyOnce(campaignId);
    },
  );
}

describe("campaigns: a send step runs exactly once per enrollment", () => {
  test("a worker killed with SIGKILL in the middle of a 10,000-enrollment send step and restarted leaves exactly one email per enrollment", async () => {
    if (db.kind === "pglite") return killEmbeddedService();
    const { campaignId } = await enrolledCampaign();
    // Held in the middle: the contact of the enrollment after the first half (in the runner's
    // order: due_at, then id) is locked FOR UPDATE, so the batch that inserts its email (the
    // foreign key's FOR KEY SHARE) waits with the first half committed.
    const half = ENROLLMENTS / 2;
    const held = milestone();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const holder = db.sql.begin(async (tx) => {
      await tx`select id from contacts where id = (
                 select contact_id from campaign_enrollments where campaign_id = ${campaignId}
                 order by due_at, id offset ${half} limit 1)
               for update`;
      held.reached();
      await released;
    });
    try {
      await held.passed;
      const first = workers.spawnWorker({ CAMPAIGN_BATCH_SIZE: BATCH });
      await withService((tx) => kickRunner(tx));
      await waitFor(async () => (await sendsOf(campaignId)).n === half, "half the enrollments sent", 120_000);
      const killed = new Promise((resolve) => first.once("exit", resolve));
      first.kill("SIGKILL");
      await killed;
    } finally {
      release();
      await holder;
    }
    const atKill = await sendsOf(campaignId);
    expect(atKill.n).toBe(half); // killed in the middle: the held batch never committed
    expect(await activeOf(campaignId)).toBe(ENROLLMENTS - half);

    workers.spawnWorker({ CAMPAIGN_BATCH_SIZE: BATCH }); // the restart: the dead worker's job is retried
    await waitFor(async () => (await activeOf(campaignId)) === 0, "every enrollment ran", 240_000);
    await expectExactlyOnce(campaignId);
  }, 400_000);
});
