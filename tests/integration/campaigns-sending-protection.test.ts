import { afterEach, beforeAll, afterAll, describe, expect, test, vi } from "vitest";
import { POST as emailWebhook } from "@/app/api/webhooks/email/route";
import * as campaignsApi from "@/lib/api/v1/campaigns";
import { createCampaignDraft, enrollContact, publishCampaign } from "@/lib/campaigns/campaigns";
import { runCampaignSweep } from "@/lib/campaigns/flows/run-campaign-sweep";
import { withService, withUser } from "@/lib/db/doors";
import { HANDLERS } from "@/worker/registry";
import {
  FAKE_RESEND_WEBHOOK_SECRET,
  resendEvent,
  resendWebhookRequest,
  startFakeResend,
} from "../fakes/resend";
import { apiKey, call, handlerOf } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";
import { runJob } from "../helpers/jobs";
import { signIn } from "../helpers/member-session";

/**
 * Campaign steps keep the workspace's sending protections as broadcasts do (docs/decisions.md, "A
 * broadcast pauses itself for its workspace's reputation" and "Sending domains and warm-up"): a send
 * step pauses the campaign when complaints or hard bounces pass their limits (only an owner resumes
 * it), and the sends of a domain in warm-up count against its daily cap, the rest waiting for the
 * next UTC day, each email still sent once.
 */
const db = setupTestDatabase();
const campaignActions = await import("@/app/(dashboard)/campaigns/actions");
const domainActions = await import("@/app/(dashboard)/settings/email/sending-domain-actions");

beforeAll(() => {
  process.env.RESEND_WEBHOOK_SECRET = FAKE_RESEND_WEBHOOK_SECRET;
});
afterAll(() => {
  delete process.env.RESEND_WEBHOOK_SECRET;
});
afterEach(() => {
  delete process.env.SENDING_WARMUP_START;
  vi.useRealTimers();
});

/** A published one-step campaign (send) with `contacts` subscribed contacts enrolled. */
async function enrolledCampaign(ws: TestWorkspace, contacts: number) {
  const campaign = await withService(async (tx) => {
    const draft = await createCampaignDraft(tx, {
      workspaceId: ws.id,
      name: "Autumn series",
      steps: [{ id: "hello", type: "send_email", subject: "Hello", body: "Autumn is here." }],
    });
    return publishCampaign(tx, { workspaceId: ws.id, campaignId: draft.id });
  });
  const enrollments: string[] = [];
  for (let i = 0; i < contacts; i++) {
    const contact = await createContact(db.sql, ws.id, { is_subscribed: true });
    const e = await withService((tx) =>
      enrollContact(tx, { workspaceId: ws.id, campaignId: campaign.id, contactId: contact.id }),
    );
    enrollments.push(e.id);
  }
  return { campaignId: campaign.id, enrollments };
}

const campaignRow = async (id: string) =>
  (
    await db.sql`select status, pause_kind, paused_reason, reputation_override,
                        (select count(*)::int from email_sends s
                          join campaign_enrollments e on e.id = s.campaign_enrollment_id
                          where e.campaign_id = c.id) as sends
                 from campaigns c where id = ${id}`
  )[0];

/** 1,000 earlier emails the provider took, `complaints` of them complained of through Resend's webhook. */
async function complaintsOf(ws: TestWorkspace, complaints: number) {
  const earlier = await db.sql<{ provider_message_id: string }[]>`
    with c as (
      insert into contacts (workspace_id, email, is_subscribed)
      select ${ws.id}, 'old' || g || '-' || ${ws.id.slice(0, 8)} || '@example.test', true
      from generate_series(1, 1000) g returning id, email)
    insert into email_sends (workspace_id, contact_id, to_email, kind, subject, status, provider, provider_message_id, sent_at)
    select ${ws.id}, c.id, c.email, 'marketing', 'Earlier', 'sent', 'resend', gen_random_uuid()::text, now() from c
    returning provider_message_id`;
  for (const { provider_message_id } of earlier.slice(0, complaints)) {
    const res = await emailWebhook(
      resendWebhookRequest(
        "http://localhost/api/webhooks/email",
        resendEvent("email.complained", provider_message_id),
      ),
    );
    expect(res.status).toBe(200);
  }
}

describe("a campaign's send step pauses the campaign for its workspace's reputation", () => {
  test("complaints at 0.3% of 1,000 fed through the email webhook: the campaign pauses with the reason and a notification, sends nothing, and its enrollments wait on the send step", async () => {
    const ws = await createWorkspace(db.sql);
    const { campaignId, enrollments } = await enrolledCampaign(ws, 3);
    await complaintsOf(ws, 3);
    await runCampaignSweep();

    expect(await campaignRow(campaignId)).toEqual({
      status: "paused",
      pause_kind: "reputation",
      paused_reason: "Complaints reached 0.3% of the workspace's last 1,000 emails (the limit is 0.3%).",
      reputation_override: false,
      sends: 0,
    });
    const waiting = await db.sql`select status, current_step, due_at from campaign_enrollments
                                 where id = any(${enrollments}::uuid[])`;
    expect(waiting.map((e) => [e.status, e.current_step])).toEqual([
      ["active", "hello"],
      ["active", "hello"],
      ["active", "hello"],
    ]);
    expect(waiting.every((e) => e.due_at !== null)).toBe(true);
    const notes = await db.sql`select type, title, action_url from notifications
                               where workspace_id = ${ws.id} and type = 'campaign.paused'`;
    expect(notes).toEqual([
      {
        type: "campaign.paused",
        title: '"Autumn series" paused to protect your sending reputation',
        action_url: `/campaigns/${campaignId}`,
      },
    ]);
  });

  test("below the limits (0.2% of 1,000) the campaign sends", async () => {
    const ws = await createWorkspace(db.sql);
    const { campaignId } = await enrolledCampaign(ws, 2);
    await complaintsOf(ws, 2);
    await runCampaignSweep();
    expect(await campaignRow(campaignId)).toMatchObject({ status: "active", pause_kind: null, sends: 2 });
  });

  test("only an owner resumes it (not an admin or member in the dashboard, not an API key, not a member's own JWT on the Data API); after an owner's resume the same rates do not pause it again and each enrollment gets one email", async () => {
    const ws = await createWorkspace(db.sql);
    const { campaignId } = await enrolledCampaign(ws, 3);
    await complaintsOf(ws, 4);
    await runCampaignSweep();
    expect((await campaignRow(campaignId)).status).toBe("paused");

    for (const role of ["admin", "member"] as const) {
      const member = await addMember(db.sql, ws.id, role);
      signIn(member.claims);
      expect(await campaignActions.controlCampaignAction(campaignId, "resume")).toEqual({
        code: "forbidden",
        message: "Only an owner can resume a campaign paused to protect the workspace's sending reputation.",
      });
      // the same member straight at the table, with their own JWT
      await expect(
        withUser(
          member.claims,
          (tx) => tx`update campaigns set status = 'active', pause_kind = null where id = ${campaignId}`,
        ),
      ).rejects.toThrow(/Only an owner can resume/);
      await expect(
        withUser(
          member.claims,
          (tx) => tx`update campaigns set reputation_override = true where id = ${campaignId}`,
        ),
      ).rejects.toThrow(/Only an owner can resume/);
    }
    const key = await apiKey(db.sql, ws.id, ["campaigns:write", "campaigns:read"]);
    const patched = await call(handlerOf(campaignsApi.update), {
      method: "PATCH",
      path: `/api/v1/campaigns/${campaignId}`,
      key: key.raw,
      body: { status: "active" },
      params: { id: campaignId },
    });
    expect(patched.status).toBe(409);
    const read = await call(handlerOf(campaignsApi.get), {
      path: `/api/v1/campaigns/${campaignId}`,
      key: key.raw,
      params: { id: campaignId },
    });
    expect(read.body.paused_reason).toMatch(/^Complaints reached 0.4%/);
    expect(await campaignRow(campaignId)).toMatchObject({
      status: "paused",
      pause_kind: "reputation",
      sends: 0,
    });

    signIn(ws.owner.claims);
    expect(await campaignActions.controlCampaignAction(campaignId, "resume")).toMatchObject({
      success: "Campaign resumed.",
    });
    expect(await campaignRow(campaignId)).toMatchObject({
      status: "active",
      pause_kind: null,
      paused_reason: null,
      reputation_override: true,
    });
    await runCampaignSweep();
    await runCampaignSweep();
    expect(await campaignRow(campaignId)).toMatchObject({ status: "active", sends: 3 });
    const [{ distinct }] = await db.sql`
      select count(distinct s.campaign_enrollment_id)::int as distinct from email_sends s
      join campaign_enrollments e on e.id = s.campaign_enrollment_id where e.campaign_id = ${campaignId}`;
    expect(distinct).toBe(3);
  });
});

describe("a campaign's sends count against the sending domain's warm-up", () => {
  test("with a cap of 2 on the first day, 2 of 5 enrollments send and 3 wait on the send step until the next UTC day, then send (each once) under the day's cap of 4", async () => {
    const resend = await startFakeResend();
    Object.assign(process.env, { RESEND_API_KEY: "re_test_campaign_warmup", RESEND_BASE_URL: resend.url });
    try {
      process.env.SENDING_WARMUP_START = "2";
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date("2032-05-04T15:00:00Z"));
      const ws = await createWorkspace(db.sql);
      const domain = `camp-${Math.random().toString(36).slice(2, 10)}.example.org`;
      signIn(ws.owner.claims);
      expect(await domainActions.addSendingDomainAction({ domain })).toMatchObject({
        success: expect.any(String),
      });
      resend.setDomainStatus(domain);
      await runJob(HANDLERS["sending-domain-check"], {
        id: crypto.randomUUID(),
        name: "sending-domain-check",
        state: "active",
        data: { __v: 1 },
        retry_count: 0,
        retry_limit: 3,
        output: null,
      });
      await domainActions.saveSenderAction({ fromName: "", fromLocal: "news", fromDomain: domain });
      const { campaignId, enrollments } = await enrolledCampaign(ws, 5);

      await runCampaignSweep();
      expect((await campaignRow(campaignId)).sends).toBe(2);
      const held = await db.sql`select current_step, due_at from campaign_enrollments
                                where id = any(${enrollments}::uuid[]) and status = 'active'`;
      expect(held).toHaveLength(3);
      for (const e of held) {
        expect(e.current_step).toBe("hello");
        expect(e.due_at.toISOString()).toBe("2032-05-05T00:00:00.000Z");
      }
      const logged = await db.sql`select count(*)::int as n from campaign_step_runs
                                  where campaign_id = ${campaignId} and outcome = 'waiting' and detail like 'for the sending domain''s warm-up%'`;
      expect(logged[0].n).toBe(3);

      // the next UTC day: the cap is 4 (the database's clock did not move: the waits are made due)
      vi.setSystemTime(new Date("2032-05-05T00:00:05Z"));
      await db.sql`update campaign_enrollments set due_at = now() where id = any(${enrollments}::uuid[]) and status = 'active'`;
      await runCampaignSweep();
      expect((await campaignRow(campaignId)).sends).toBe(5);
      const ended =
        await db.sql`select status from campaign_enrollments where id = any(${enrollments}::uuid[])`;
      expect(ended.every((e) => e.status === "completed")).toBe(true);
      const days = await db.sql`select day::text, sent from sending_domain_days d
        join sending_domains s on s.id = d.sending_domain_id where s.domain = ${domain} order by day`;
      expect(days.map((d) => [d.day, d.sent])).toEqual([
        ["2032-05-04", 2],
        ["2032-05-05", 3],
      ]);
    } finally {
      delete process.env.RESEND_API_KEY;
      delete process.env.RESEND_BASE_URL;
      await resend.stop();
    }
  });
});
