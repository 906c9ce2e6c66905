import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST } from "@/app/api/webhooks/email/route";
import { withService, withUser } from "@/lib/db/doors";
import { audienceSchema } from "@/lib/email/broadcast-audience";
import { createBroadcast } from "@/lib/email/broadcasts";
import { controlBroadcast } from "@/lib/email/control-broadcast";
import { runBroadcast } from "@/lib/email/flows/run-broadcast";
import { FAKE_RESEND_WEBHOOK_SECRET, resendEvent, resendWebhookRequest } from "../fakes/resend";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createWorkspace } from "../helpers/factories";
import { signIn } from "../helpers/member-session";

/**
 * Reputation protection (docs/decisions.md, "A broadcast pauses itself for its workspace's
 * reputation"): complaints fed through the real email webhook pause a broadcast before its next
 * batch; only an owner lifts the pause.
 */
const db = setupTestDatabase();
const broadcasts = await import("@/app/(dashboard)/broadcasts/actions");

beforeAll(() => {
  process.env.RESEND_WEBHOOK_SECRET = FAKE_RESEND_WEBHOOK_SECRET;
});
afterAll(() => {
  delete process.env.RESEND_WEBHOOK_SECRET;
});

/**
 * A workspace whose earlier mail is `delivered` emails the provider took, `complaints` of them
 * complained of through Resend's webhook; and 200 subscribed contacts for the next broadcast.
 */
async function workspaceWithHistory(delivered: number, complaints: number) {
  const ws = await createWorkspace(db.sql);
  const earlier = await db.sql<{ provider_message_id: string }[]>`
    with c as (
      insert into contacts (workspace_id, email, is_subscribed)
      select ${ws.id}, 'old' || g || '-' || ${ws.id.slice(0, 8)} || '@example.test', true
      from generate_series(1, ${delivered}) g
      returning id, email)
    insert into email_sends (workspace_id, contact_id, to_email, kind, subject, status, provider, provider_message_id, sent_at)
    select ${ws.id}, c.id, c.email, 'marketing', 'Earlier news', 'sent', 'resend', gen_random_uuid()::text, now()
    from c
    returning provider_message_id`;
  for (const { provider_message_id } of earlier.slice(0, complaints)) {
    const res = await POST(
      resendWebhookRequest(
        "http://localhost/api/webhooks/email",
        resendEvent("email.complained", provider_message_id),
      ),
    );
    expect(res.status).toBe(200);
  }
  await db.sql`
    insert into contacts (workspace_id, email, is_subscribed)
    select ${ws.id}, 'new' || g || '-' || ${ws.id.slice(0, 8)} || '@example.test', true
    from generate_series(1, 200) g`;
  return ws;
}

async function startedBroadcast(ws: Awaited<ReturnType<typeof createWorkspace>>) {
  const { id } = await withUser(ws.owner.claims, (tx) =>
    createBroadcast(tx, {
      workspaceId: ws.id,
      createdBy: ws.owner.id,
      subject: "Spring news",
      body: "Hello!\n\nLeave: {{unsubscribe_url}}",
      audience: audienceSchema.parse({}),
    }),
  );
  const input = { workspaceId: ws.id, broadcastId: id };
  expect(await withService((tx) => controlBroadcast(tx, { ...input, control: "start" }))).toBe(true);
  return input;
}

const broadcastRow = async (id: string) =>
  (
    await db.sql`select status, pause_kind, paused_reason, reputation_override,
                        (select count(*)::int from email_sends where broadcast_id = b.id) as rows
                 from broadcasts b where id = ${id}`
  )[0];

describe("reputation protection: a broadcast pauses itself", () => {
  test("complaints at 0.3% of 1,000 delivered, fed through the email webhook, pause the next broadcast before its first batch, with the reason and a notification", async () => {
    const ws = await workspaceWithHistory(1_000, 3);
    const input = await startedBroadcast(ws);
    expect(await runBroadcast(input)).toEqual({ status: "done", output: { batches: 0, paused: true } });
    expect(await broadcastRow(input.broadcastId)).toEqual({
      status: "paused",
      pause_kind: "reputation",
      paused_reason: "Complaints reached 0.3% of the workspace's last 1,000 emails (the limit is 0.3%).",
      reputation_override: false,
      rows: 0,
    });
    const notes = await db.sql`select type, title, action_url, user_id from notifications
                               where workspace_id = ${ws.id} and type = 'broadcast.paused'`;
    expect(notes).toEqual([
      {
        type: "broadcast.paused",
        title: '"Spring news" paused to protect your sending reputation',
        action_url: `/broadcasts/${input.broadcastId}`,
        user_id: null,
      },
    ]);
  });

  test("below the limits nothing pauses: 0.2% complaints of 1,000, or 1% of fewer than 1,000 delivered", async () => {
    for (const [delivered, complaints] of [
      [1_000, 2],
      [500, 5],
    ]) {
      const ws = await workspaceWithHistory(delivered, complaints);
      const input = await startedBroadcast(ws);
      expect((await runBroadcast(input)).status).toBe("done");
      // every contact of the audience has its row: the 200 new ones and the earlier ones (those
      // complained of skipped, suppressed)
      expect(await broadcastRow(input.broadcastId)).toMatchObject({
        status: "sent",
        pause_kind: null,
        rows: delivered + 200,
      });
    }
  });

  test("hard bounces at 5% pause it too", async () => {
    const ws = await createWorkspace(db.sql);
    await db.sql`
      with c as (
        insert into contacts (workspace_id, email, is_subscribed)
        select ${ws.id}, 'b' || g || '-' || ${ws.id.slice(0, 8)} || '@example.test', true
        from generate_series(1, 1000) g returning id, email)
      insert into email_sends (workspace_id, contact_id, to_email, kind, subject, status, provider)
      select ${ws.id}, c.id, c.email, 'marketing', 'Old', case when row_number() over () <= 50 then 'bounced' else 'sent' end, 'resend'
      from c`;
    const input = await startedBroadcast(ws);
    expect((await runBroadcast(input)).status).toBe("done");
    expect(await broadcastRow(input.broadcastId)).toMatchObject({
      status: "paused",
      pause_kind: "reputation",
      paused_reason: "Hard bounces reached 5% of the workspace's last 1,000 emails (the limit is 5%).",
    });
  });

  test("only an owner resumes a reputation pause; once resumed the same rates do not pause it again", async () => {
    const ws = await workspaceWithHistory(1_000, 4);
    const input = await startedBroadcast(ws);
    await runBroadcast(input);
    expect((await broadcastRow(input.broadcastId)).status).toBe("paused");

    for (const role of ["admin", "member"] as const) {
      signIn((await addMember(db.sql, ws.id, role)).claims);
      expect(await broadcasts.controlBroadcastAction(input.broadcastId, "resume")).toEqual({
        code: "forbidden",
        message: "Only an owner can resume a broadcast paused to protect the workspace's sending reputation.",
      });
      expect(await broadcastRow(input.broadcastId)).toMatchObject({
        status: "paused",
        pause_kind: "reputation",
      });
    }

    signIn(ws.owner.claims);
    expect(await broadcasts.controlBroadcastAction(input.broadcastId, "resume")).toMatchObject({
      data: { status: "sending" },
    });
    expect(await broadcastRow(input.broadcastId)).toMatchObject({
      status: "sending",
      pause_kind: null,
      paused_reason: null,
      reputation_override: true,
    });
    expect((await runBroadcast(input)).status).toBe("done");
    expect(await broadcastRow(input.broadcastId)).toMatchObject({ status: "sent", rows: 1_200 });
  });

  test("a member's own pause and resume need no owner", async () => {
    const ws = await workspaceWithHistory(10, 0);
    const input = await startedBroadcast(ws);
    const member = await addMember(db.sql, ws.id, "member");
    signIn(member.claims);
    expect(await broadcasts.controlBroadcastAction(input.broadcastId, "pause")).toMatchObject({
      data: { status: "paused" },
    });
    expect(await broadcasts.controlBroadcastAction(input.broadcastId, "resume")).toMatchObject({
      data: { status: "sending" },
    });
  });
});
