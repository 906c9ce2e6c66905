import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST } from "@/app/api/webhooks/email/route";
import { PERMANENT_SUPPRESSION_WARNING } from "@/lib/consent/record-delivery-suppression";
import { signWebhook } from "@/lib/email/webhook-signature";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();
const secret = `whsec_${Buffer.from("test-secret-for-the-email-hook!!").toString("base64")}`;
beforeAll(() => {
  process.env.RESEND_WEBHOOK_SECRET = secret;
});
afterAll(() => {
  delete process.env.RESEND_WEBHOOK_SECRET;
});

function delivery(event: unknown, opts: { id?: string; ts?: number; key?: string } = {}) {
  const body = JSON.stringify(event);
  const id = opts.id ?? `msg_${randomUUID()}`;
  const ts = opts.ts ?? Math.floor(Date.now() / 1000);
  return new Request("http://localhost/api/webhooks/email", {
    method: "POST",
    body,
    headers: {
      "svix-id": id,
      "svix-timestamp": String(ts),
      "svix-signature": signWebhook(opts.key ?? secret, id, ts, body),
    },
  });
}

async function sentEmail(workspaceId: string, contactId: string) {
  const providerId = randomUUID();
  await db.sql`insert into email_sends (workspace_id, contact_id, to_email, kind, status, provider, provider_message_id)
               values (${workspaceId}, ${contactId}, 'x@example.test', 'marketing', 'sent', 'resend', ${providerId})`;
  return providerId;
}

const event = (type: string, emailId: string) => ({
  type,
  created_at: new Date().toISOString(),
  data: { email_id: emailId, to: ["x@example.test"] },
});

async function state(contactId: string) {
  const suppressions = await db.sql`select reason from contact_suppressions where contact_id = ${contactId}`;
  const notifications =
    await db.sql`select type, title, body, action_url, action_label from notifications where contact_id = ${contactId}`;
  return { suppressions: suppressions.map((s) => s.reason), notifications };
}

describe("6.1 / 6.3 bounce and complaint ingestion: POST /api/webhooks/email", () => {
  test("6.1 email.bounced creates a 'bounce' suppression and one notification with a 'View Contact' link", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    const res = await POST(delivery(event("email.bounced", await sentEmail(ws.id, c.id))));
    expect(res.status).toBe(200);
    const s = await state(c.id);
    expect(s.suppressions).toEqual(["bounce"]);
    expect(s.notifications).toEqual([
      expect.objectContaining({
        type: "email_bounce",
        action_url: `/contacts/${c.id}`,
        action_label: "View Contact",
      }),
    ]);
    const [send] = await db.sql`select status from email_sends where contact_id = ${c.id}`;
    expect(send.status).toBe("bounced");
  });

  test("6.3 email.complained creates a 'complaint' suppression; its notification carries the permanent-suppression warning", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    await POST(delivery(event("email.complained", await sentEmail(ws.id, c.id))));
    const s = await state(c.id);
    expect(s.suppressions).toEqual(["complaint"]);
    expect(s.notifications).toHaveLength(1);
    expect(s.notifications[0].body).toContain(PERMANENT_SUPPRESSION_WARNING);
    expect(s.notifications[0].action_label).toBe("View Contact");
  });

  test("2.6 one suppression per reason per contact: a second bounce of another email makes no second suppression or notification", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    await POST(delivery(event("email.bounced", await sentEmail(ws.id, c.id))));
    await POST(delivery(event("email.bounced", await sentEmail(ws.id, c.id))));
    const s = await state(c.id);
    expect(s.suppressions).toEqual(["bounce"]);
    expect(s.notifications).toHaveLength(1);
  });

  test("webhook: a replayed delivery (same svix-id) is acknowledged and ignored", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, 'manual')`;
    const providerId = await sentEmail(ws.id, c.id);
    const first = await POST(delivery(event("email.bounced", providerId), { id: "msg_replay_1" }));
    expect(await first.json()).toMatchObject({ duplicate: false, suppressed: 1 });
    // the bounce is removed by an admin; a replay must not bring it (or a notification) back
    await db.sql`delete from contact_suppressions where contact_id = ${c.id} and reason = 'bounce'`;
    const replay = await POST(delivery(event("email.bounced", providerId), { id: "msg_replay_1" }));
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ duplicate: true });
    const s = await state(c.id);
    expect(s.suppressions).toEqual(["manual"]);
    expect(s.notifications).toHaveLength(1);
  });

  test.each([
    [
      "a wrong signature",
      { key: `whsec_${Buffer.from("a-different-secret-of-32-bytes!!").toString("base64")}` },
    ],
    ["a stale timestamp (6 minutes old)", { ts: Math.floor(Date.now() / 1000) - 360 }],
  ])("webhook: %s is rejected with 401 and stores nothing", async (_n, opts) => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const id = `msg_${randomUUID()}`;
    const res = await POST(
      delivery(event("email.complained", await sentEmail(ws.id, c.id)), { ...opts, id }),
    );
    expect(res.status).toBe(401);
    expect((await state(c.id)).suppressions).toEqual([]);
    const inbox = await db.sql`select 1 from webhook_inbox where event_id = ${id}`;
    expect(inbox).toHaveLength(0);
  });

  test("webhook: an unknown email id or another event type is stored as ignored and suppresses no one", async () => {
    const id = `msg_${randomUUID()}`;
    const res = await POST(delivery(event("email.bounced", randomUUID()), { id }));
    expect(res.status).toBe(200);
    const delivered = await POST(delivery(event("email.delivered", randomUUID())));
    expect(delivered.status).toBe(200);
    const [row] = await db.sql`select status from webhook_inbox where event_id = ${id}`;
    expect(row.status).toBe("ignored");
  });
});
