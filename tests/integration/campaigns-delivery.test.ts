import { afterEach, describe, expect, test } from "vitest";
import { createCampaignDraft, enrollContact, publishCampaign } from "@/lib/campaigns/campaigns";
import { runCampaignSweep } from "@/lib/campaigns/flows/run-campaign-sweep";
import { withService } from "@/lib/db/doors";
import { deliverEmail } from "@/lib/email/flows/deliver-email";
import { startFakeResend, type FakeResend } from "../fakes/resend";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";
import { jobsOf } from "../helpers/jobs";

/**
 * A campaign's email leaves as every single email does (docs/decisions.md, "Campaign waits as a
 * due-time index"): the send step records a 'queued' row and its 'email-send' job in its
 * transaction; the job calls Resend through the shared pacer, retries an outage with the same
 * idempotency key, and never sends twice.
 */
const db = setupTestDatabase();

let resend: FakeResend | undefined;
afterEach(async () => {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  await resend?.stop();
  resend = undefined;
});

describe("campaigns: delivery through the queued email path", () => {
  test("with Resend, the send step queues one email and its job; the job delivers it once, through an outage, and a rerun sends nothing", async () => {
    resend = await startFakeResend();
    Object.assign(process.env, { RESEND_API_KEY: "re_test_campaigns", RESEND_BASE_URL: resend.url });
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true, first_name: "Ada" });
    const enrollment = await withService(async (tx) => {
      const draft = await createCampaignDraft(tx, {
        workspaceId: ws.id,
        name: "Hello",
        steps: [
          { id: "hello", type: "send_email", subject: "Hello {{first_name}}", body: "Hi" },
          { id: "later", type: "wait", duration: { hours: 1 } },
        ],
      });
      await publishCampaign(tx, { workspaceId: ws.id, campaignId: draft.id });
      return enrollContact(tx, { workspaceId: ws.id, campaignId: draft.id, contactId: c.id });
    });
    await runCampaignSweep();
    await runCampaignSweep();
    const rows = await db.sql`select id, status, provider, subject from email_sends
                              where campaign_enrollment_id = ${enrollment.id}`;
    expect(rows).toEqual([
      { id: expect.any(String), status: "queued", provider: "resend", subject: "Hello Ada" },
    ]);
    const jobs = (await jobsOf(db.sql, ws.id)).filter((j) => j.name === "email-send");
    expect(jobs.map((j) => (j.data as { emailSendId: string }).emailSendId)).toEqual([rows[0].id]);

    resend.failNext(1, 503);
    expect((await deliverEmail(rows[0].id)).status).toBe("retry");
    expect((await deliverEmail(rows[0].id)).status).toBe("done");
    expect(await deliverEmail(rows[0].id)).toEqual({ status: "done", output: { outcome: "done" } });
    expect(resend.sent).toHaveLength(1);
    expect(resend.sent[0]).toMatchObject({ to: c.email, subject: "Hello Ada" });
    expect(resend.sent[0].headers).toHaveProperty("List-Unsubscribe");
    const [after] = await db.sql`select status from email_sends where id = ${rows[0].id}`;
    expect(after.status).toBe("sent");
  });
});
