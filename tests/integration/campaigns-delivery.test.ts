import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { claimCampaignChunks } from "@/lib/campaigns/campaign-delivery";
import { createCampaignDraft, publishCampaign } from "@/lib/campaigns/campaigns";
import { deliverCampaignEmails } from "@/lib/campaigns/flows/deliver-campaign-emails";
import { runCampaignSweep } from "@/lib/campaigns/flows/run-campaign-sweep";
import { withService } from "@/lib/db/doors";
import { deliverBatch } from "@/lib/email/send-broadcast";
import { startFakeResend, type FakeResend } from "../fakes/resend";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace, type TestWorkspace } from "../helpers/factories";

/**
 * Campaign emails leave in batch calls (docs/decisions.md, "Campaign emails in batches"): a send step
 * queues its row in the runner's transaction; the 'campaign-delivery' job sends the queued rows in
 * chunks of up to 100, one Resend batch call each under the chunk's own key, so an outage, a retry or
 * a worker that died after Resend took a chunk never sends an email twice.
 */
const db = setupTestDatabase();

let resend: FakeResend;
beforeEach(async () => {
  resend = await startFakeResend();
  Object.assign(process.env, { RESEND_API_KEY: "re_test_campaign_batches", RESEND_BASE_URL: resend.url });
});
afterEach(async () => {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  await resend.stop();
});

/** A published campaign (send, then a long wait) with `n` new subscribed contacts enrolled. */
async function campaignWith(ws: TestWorkspace, n: number, campaignId?: string) {
  const id =
    campaignId ??
    (await withService(async (tx) => {
      const draft = await createCampaignDraft(tx, {
        workspaceId: ws.id,
        name: "Season opener",
        steps: [
          { id: "hello", type: "send_email", subject: "Hello {{first_name}}", body: "Hi" },
          { id: "later", type: "wait", duration: { days: 30 } },
        ],
      });
      return (await publishCampaign(tx, { workspaceId: ws.id, campaignId: draft.id })).id;
    }));
  await db.sql`
    with c as (
      insert into contacts (workspace_id, email, first_name, is_subscribed)
      select ${ws.id}, 'c' || g || '-' || gen_random_uuid() || '@example.test', 'Name' || g, true
      from generate_series(1, ${n}) g returning id)
    insert into campaign_enrollments (workspace_id, campaign_id, contact_id, status)
    select ${ws.id}, ${id}, c.id, 'active' from c`;
  return id;
}

const rowsOf = (campaignId: string) =>
  db.sql<
    {
      id: string;
      status: string;
      to_email: string;
      provider_message_id: string | null;
      skip_reason: string | null;
    }[]
  >`
    select s.id, s.status, s.to_email, s.provider_message_id, s.skip_reason from email_sends s
    join campaign_enrollments e on e.id = s.campaign_enrollment_id
    where e.campaign_id = ${campaignId} order by s.id`;

const batchCalls = () => resend.requests.filter((r) => r.path === "/emails/batch");

describe("campaign emails in batch calls", () => {
  test("250 enrollments' send step queues 250 rows; the delivery job sends them in 3 batch calls of at most 100, through a 503 on one call (retried under the same key), each email once", async () => {
    const ws = await createWorkspace(db.sql);
    const campaignId = await campaignWith(ws, 250);
    await runCampaignSweep();
    const queued = await rowsOf(campaignId);
    expect(queued).toHaveLength(250);
    expect(queued.every((r) => r.status === "queued")).toBe(true);
    const [job] = await db.sql`select count(*)::int as n from pgboss.job
                               where name = 'campaign-delivery' and state = 'created'`;
    expect(job.n).toBeGreaterThanOrEqual(1);

    resend.failNext(1, 503);
    expect((await deliverCampaignEmails()).status).toBe("retry");
    expect(await deliverCampaignEmails()).toEqual({
      status: "done",
      output: { chunks: 1, sent: expect.any(Number) },
    });
    expect(await deliverCampaignEmails()).toEqual({ status: "done", output: { chunks: 0, sent: 0 } });

    const rows = await rowsOf(campaignId);
    expect(rows.every((r) => r.status === "sent" && r.provider_message_id)).toBe(true);
    expect(resend.sent).toHaveLength(250);
    expect(new Set(resend.sent.map((e) => e.to)).size).toBe(250);
    const calls = batchCalls();
    expect(calls).toHaveLength(4); // three chunks, one of them twice
    expect(new Set(calls.map((c) => c.idempotencyKey)).size).toBe(3);
    expect(calls.every((c) => c.idempotencyKey?.startsWith("campaign:"))).toBe(true);
  });

  test("a worker that died after Resend took its chunk, before recording it: once the lease ends the next run sends the same rows under the same key, and Resend answers from the first delivery, though more rows were queued meanwhile", async () => {
    const ws = await createWorkspace(db.sql);
    const campaignId = await campaignWith(ws, 60);
    await runCampaignSweep();
    // the dead run: it formed the chunk and called Resend, then died before recording
    const [chunk] = await withService((tx) => claimCampaignChunks(tx, 1));
    expect(chunk.rows).toHaveLength(60);
    const taken = await deliverBatch(
      chunk.rows.map((row) => ({ id: row.id, sender: { from: "Club <club@example.test>" }, email: row })),
      chunk.key,
    );
    expect("providerIds" in taken).toBe(true);
    expect(resend.sent).toHaveLength(60);

    await campaignWith(ws, 30, campaignId); // more contacts, queued while the chunk's lease runs
    await runCampaignSweep();
    await db.sql`update email_sends set lease_until = now() - interval '1 second' where lease_owner = ${chunk.key}`;
    expect((await deliverCampaignEmails()).status).toBe("done");

    const rows = await rowsOf(campaignId);
    expect(rows).toHaveLength(90);
    expect(rows.every((r) => r.status === "sent")).toBe(true);
    expect(resend.sent).toHaveLength(90);
    expect(new Set(resend.sent.map((e) => e.to)).size).toBe(90);
    expect(batchCalls().filter((c) => c.idempotencyKey === chunk.key)).toHaveLength(2);
  });

  test("a refusal another attempt cannot change (422) records the chunk's rows 'failed' with the provider's reason; nothing is retried", async () => {
    const ws = await createWorkspace(db.sql);
    const campaignId = await campaignWith(ws, 5);
    await runCampaignSweep();
    resend.failNext(1, 422);
    expect((await deliverCampaignEmails()).status).toBe("done");
    const rows = await rowsOf(campaignId);
    expect(rows.map((r) => r.status)).toEqual(["failed", "failed", "failed", "failed", "failed"]);
    expect(rows[0].skip_reason).toMatch(/validation_error/);
    expect(resend.sent).toHaveLength(0);
  });

  test("queued rows no run holds (a delivery past its last attempt) make the sweep start the delivery again", async () => {
    const ws = await createWorkspace(db.sql);
    await campaignWith(ws, 3);
    await runCampaignSweep();
    await db.sql`delete from pgboss.job where name = 'campaign-delivery'`;
    await runCampaignSweep();
    const [job] = await db.sql`select count(*)::int as n from pgboss.job
                               where name = 'campaign-delivery' and state = 'created'`;
    expect(job.n).toBe(1);
  });

  test("spec 8.3 when the chunk is formed: a contact who unsubscribed, complained or was deleted after the send step queued their email gets nothing; the row is skipped with the reason", async () => {
    const ws = await createWorkspace(db.sql);
    const campaignId = await campaignWith(ws, 5);
    await runCampaignSweep();
    const queued = await db.sql<{ contact_id: string; to_email: string }[]>`
      select s.contact_id, s.to_email from email_sends s
      join campaign_enrollments e on e.id = s.campaign_enrollment_id
      where e.campaign_id = ${campaignId} and s.status = 'queued' order by s.to_email`;
    expect(queued).toHaveLength(5);
    const [unsubscribed, complained, deleted, ...kept] = queued;
    await db.sql`update contacts set is_subscribed = false, unsubscribed_at = now() where id = ${unsubscribed.contact_id}`;
    await db.sql`insert into contact_suppressions (workspace_id, contact_id, reason)
                 values (${ws.id}, ${complained.contact_id}, 'complaint')`;
    await db.sql`delete from contacts where id = ${deleted.contact_id}`;

    expect((await deliverCampaignEmails()).status).toBe("done");
    // (rows other tests left queued leave too: the delivery is every campaign's)
    const ours = new Set(queued.map((q) => q.to_email));
    const sentHere = resend.sent.map((e) => [e.to].flat().join(",")).filter((to) => ours.has(to));
    expect(sentHere.sort()).toEqual(kept.map((k) => k.to_email).sort());
    // the deleted contact's enrollment went with it: the row is no campaign's any more and never leaves
    const rows = await db.sql<{ to_email: string; status: string; skip_reason: string | null }[]>`
      select to_email, status, skip_reason from email_sends where workspace_id = ${ws.id}`;
    const byAddress = new Map(rows.map((r) => [r.to_email, r]));
    expect(byAddress.get(unsubscribed.to_email)).toMatchObject({
      status: "skipped",
      skip_reason: "unsubscribed",
    });
    expect(byAddress.get(complained.to_email)).toMatchObject({
      status: "skipped",
      skip_reason: "complaint suppression",
    });
    expect(byAddress.get(deleted.to_email)?.status).not.toBe("sent");
    for (const k of kept) expect(byAddress.get(k.to_email)?.status).toBe("sent");
  });

  test("a whole chunk of contacts who left since: the delivery skips them and goes on to the rows behind", async () => {
    const ws = await createWorkspace(db.sql);
    const campaignId = await campaignWith(ws, 130);
    await runCampaignSweep();
    // the first 100 queued rows (a whole chunk, in id order) are of contacts who unsubscribed since
    await db.sql`
      update contacts set is_subscribed = false, unsubscribed_at = now()
      where id in (select s.contact_id from email_sends s join campaign_enrollments e on e.id = s.campaign_enrollment_id
                   where e.campaign_id = ${campaignId} order by s.id limit 100)`;
    expect((await deliverCampaignEmails()).status).toBe("done");
    const ours = await db.sql`select email from contacts where workspace_id = ${ws.id}`;
    const addresses = new Set(ours.map((c) => c.email));
    expect(resend.sent.filter((e) => addresses.has([e.to].flat().join(",")))).toHaveLength(30);
    const counts = await db.sql`
      select s.status, count(*)::int as n from email_sends s join campaign_enrollments e on e.id = s.campaign_enrollment_id
      where e.campaign_id = ${campaignId} group by s.status order by s.status`;
    expect(counts).toEqual([
      { status: "sent", n: 30 },
      { status: "skipped", n: 100 },
    ]);
  });
});
