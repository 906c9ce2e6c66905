import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { GET as getBroadcastV1 } from "@/app/api/v1/broadcasts/[id]/route";
import { POST } from "@/app/api/webhooks/email/route";
import { broadcastSchema } from "@/lib/api/v1/broadcasts";
import { unsubscribeContact } from "@/lib/consent/unsubscribe-contact";
import { getContactTimeline } from "@/lib/contacts/get-contact-timeline";
import { withService, withUser } from "@/lib/db/doors";
import { getBroadcastReport, getBroadcastStats } from "@/lib/email/broadcast-stats";
import { eraseContact } from "@/lib/privacy/erase-contact";
import { exportContactData } from "@/lib/privacy/export-contact-data";
import { createWebhookEndpoint } from "@/lib/webhooks/outbound/create-webhook-endpoint";
import { webhookEndpointSchema } from "@/lib/webhooks/outbound/schemas";
import { webhookPayloadSchema } from "@/lib/webhooks/outbound/payloads";
import type { WebhookEventType } from "@/lib/webhooks/outbound/event-types";
import {
  FAKE_RESEND_WEBHOOK_SECRET,
  resendEvent,
  resendWebhookRequest,
  type ResendEventType,
} from "../fakes/resend";
import { apiKey, call } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";

const db = setupTestDatabase();
const URL = "http://localhost/api/webhooks/email";

beforeAll(() => {
  process.env.RESEND_WEBHOOK_SECRET = FAKE_RESEND_WEBHOOK_SECRET;
});
afterAll(() => {
  delete process.env.RESEND_WEBHOOK_SECRET;
});

async function workspace(tracking = true): Promise<TestWorkspace> {
  const ws = await createWorkspace(db.sql);
  await db.sql`update workspaces set email_tracking_enabled = ${tracking} where id = ${ws.id}`;
  return ws;
}

async function broadcast(ws: TestWorkspace): Promise<string> {
  const [b] = await db.sql`
    insert into broadcasts (workspace_id, subject, status, sent_at) values (${ws.id}, 'News', 'sent', now())
    returning id`;
  return b.id;
}

/** A marketing email of the broadcast, sent through Resend `sentAgo` seconds ago. */
async function send(ws: TestWorkspace, broadcastId: string | null, sentAgo = 3600) {
  const contact = await createContact(db.sql, ws.id, { is_subscribed: true });
  const emailId = randomUUID();
  const [row] = await db.sql`
    insert into email_sends (workspace_id, contact_id, broadcast_id, to_email, kind, status, provider,
                             provider_message_id, sent_at)
    values (${ws.id}, ${contact.id}, ${broadcastId}, ${contact.email}, 'marketing', 'sent', 'resend', ${emailId},
            now() - make_interval(secs => ${sentAgo}))
    returning id`;
  return { sendId: row.id as string, emailId, contactId: contact.id };
}

async function deliver(
  type: ResendEventType,
  emailId: string,
  opts: Parameters<typeof resendEvent>[2] & { id?: string; secret?: string; timestamp?: number } = {},
) {
  const res = await POST(resendWebhookRequest(URL, resendEvent(type, emailId, opts), opts));
  return { status: res.status, body: await res.json() };
}

const eventsOf = (sendId: string) =>
  db.sql`select workspace_id, broadcast_id, type, link_url, user_agent, host(ip) as ip, svix_id, is_machine
         from email_events where email_send_id = ${sendId} order by occurred_at, type`;

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);

describe("email engagement: POST /api/webhooks/email (docs/api.md, 'Email engagement')", () => {
  test("engagement events from the fake Resend are stored once per svix-id, attributed to the send's workspace and broadcast, never the payload's", async () => {
    const ws = await workspace();
    const other = await workspace();
    const b = await broadcast(ws);
    const otherBroadcast = await broadcast(other);
    const s = await send(ws, b);
    const lie = { broadcast_id: otherBroadcast, tags: { workspace_id: other.id } };
    await deliver("email.delivered", s.emailId, { at: ago(600), data: lie });
    const opened = await deliver("email.opened", s.emailId, { at: ago(300), data: lie, id: "msg_open_1" });
    expect(opened).toMatchObject({ status: 200, body: { duplicate: false, stored: 1 } });
    await deliver("email.clicked", s.emailId, {
      at: ago(200),
      data: lie,
      click: { link: "https://example.com/offer?utm=news" },
    });
    await deliver("email.delivery_delayed", s.emailId, { at: ago(100) });
    // Resend retries the open: the same svix-id counts once
    const replay = await deliver("email.opened", s.emailId, { at: ago(300), id: "msg_open_1" });
    expect(replay).toMatchObject({ status: 200, body: { duplicate: true } });

    const rows = await eventsOf(s.sendId);
    expect(rows.map((r) => r.type)).toEqual(["delivered", "opened", "clicked", "delivery_delayed"]);
    for (const r of rows) expect(r).toMatchObject({ workspace_id: ws.id, broadcast_id: b });
    expect(rows[2]).toMatchObject({
      link_url: "https://example.com/offer?utm=news",
      ip: "203.0.113.9",
      is_machine: false,
    });
    expect(rows.filter((r) => r.svix_id === "msg_open_1")).toHaveLength(1);
    expect(await db.sql`select 1 from email_events where workspace_id = ${other.id}`).toEqual([]);
  });

  test("a forged signature stores nothing: no event, no inbox row, the send unchanged", async () => {
    const ws = await workspace();
    const s = await send(ws, await broadcast(ws));
    const wrong = `whsec_${Buffer.from("another-secret-of-thirty-two-byt").toString("base64")}`;
    for (const type of ["email.delivered", "email.opened", "email.clicked", "email.bounced"] as const) {
      const id = `msg_forged_${randomUUID()}`;
      const res = await deliver(type, s.emailId, { id, secret: wrong });
      expect(res.status).toBe(401);
      expect(await db.sql`select 1 from webhook_inbox where event_id = ${id}`).toEqual([]);
    }
    const stale = await deliver("email.opened", s.emailId, {
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect(stale.status).toBe(401);
    expect(await eventsOf(s.sendId)).toEqual([]);
    expect((await db.sql`select status from email_sends where id = ${s.sendId}`)[0].status).toBe("sent");
  });

  test("tracking off (the default): opens and clicks are not stored, not even in the inbox; deliveries and bounces are", async () => {
    const ws = await createWorkspace(db.sql); // a new workspace: tracking is off
    expect((await db.sql`select email_tracking_enabled from workspaces where id = ${ws.id}`)[0]).toEqual({
      email_tracking_enabled: false,
    });
    const s = await send(ws, await broadcast(ws));
    await deliver("email.delivered", s.emailId, { at: ago(600) });
    const open = await deliver("email.opened", s.emailId, { id: "msg_untracked_open" });
    const click = await deliver("email.clicked", s.emailId, {
      id: "msg_untracked_click",
      click: { link: "https://example.com/private?token=abc" },
    });
    expect(open.body).toMatchObject({ outcome: "ignored", stored: 0 });
    expect(click.body).toMatchObject({ outcome: "ignored", stored: 0 });
    await deliver("email.bounced", s.emailId);
    expect((await eventsOf(s.sendId)).map((r) => r.type)).toEqual(["delivered", "bounced"]);
    const inbox = await db.sql`
      select payload from webhook_inbox where event_id in ('msg_untracked_open', 'msg_untracked_click')`;
    expect(inbox).toHaveLength(2);
    for (const row of inbox)
      expect(JSON.stringify(row.payload)).not.toMatch(/token=abc|203\.0\.113|email_id/);
    expect(
      (await db.sql`select reason from contact_suppressions where contact_id = ${s.contactId}`)[0],
    ).toEqual({ reason: "bounce" });
  });

  test("machine opens and clicks: within seconds of delivery, Apple's proxy (agent or 17.0.0.0/8) and scanners' agents are flagged; a person's later click is not", async () => {
    const ws = await workspace();
    const b = await broadcast(ws);
    const scanner = await send(ws, b);
    await deliver("email.delivered", scanner.emailId, { at: ago(60) });
    await deliver("email.opened", scanner.emailId, { at: ago(58) });
    await deliver("email.clicked", scanner.emailId, {
      at: ago(57),
      click: { link: "https://example.com/a" },
    });
    expect((await eventsOf(scanner.sendId)).map((r) => [r.type, r.is_machine])).toEqual([
      ["delivered", false],
      ["opened", true],
      ["clicked", true],
    ]);

    const person = await send(ws, b);
    await deliver("email.delivered", person.emailId, { at: ago(3000) });
    await deliver("email.clicked", person.emailId, {
      at: ago(2000),
      click: { link: "https://example.com/a" },
    });
    await deliver("email.clicked", person.emailId, {
      at: ago(1900),
      click: { link: "https://example.com/b", ipAddress: "17.58.1.2" },
    });
    await deliver("email.clicked", person.emailId, {
      at: ago(1800),
      click: { link: "https://example.com/c", userAgent: "Mozilla/5.0" },
    });
    await deliver("email.clicked", person.emailId, {
      at: ago(1700),
      click: { link: "https://example.com/d", userAgent: "python-requests/2.31.0" },
    });
    expect(
      (await eventsOf(person.sendId)).filter((r) => r.type === "clicked").map((r) => r.is_machine),
    ).toEqual([false, true, true, true]);

    // the open arrives before the delivery report: flagged when the delivery shows it was 3 s after
    const early = await send(ws, b);
    await deliver("email.opened", early.emailId, { at: ago(97) });
    expect((await eventsOf(early.sendId))[0].is_machine).toBe(false);
    await deliver("email.delivered", early.emailId, { at: ago(100) });
    expect((await eventsOf(early.sendId)).map((r) => [r.type, r.is_machine])).toEqual([
      ["delivered", false],
      ["opened", true],
    ]);
  });

  test("an email id that is no send of ours, or of an account email, stores nothing", async () => {
    const res = await deliver("email.opened", randomUUID());
    expect(res.body).toMatchObject({ outcome: "ignored", stored: 0 });
    const [account] = await db.sql`
      insert into email_sends (to_email, kind, status, provider, provider_message_id)
      values ('someone@example.test', 'transactional', 'sent', 'resend', ${randomUUID()}) returning provider_message_id`;
    const accountEvent = await deliver("email.delivered", account.provider_message_id);
    expect(accountEvent.body).toMatchObject({ outcome: "ignored", stored: 0 });
  });
});

describe("email engagement: the broadcast's counts (getBroadcastStats, getBroadcastReport)", () => {
  test("stats count sends: sent, delivered, unique opens and clicks, bounces, complaints, and unsubscribes made from the email", async () => {
    const ws = await workspace();
    const b = await broadcast(ws);
    const sends: Awaited<ReturnType<typeof send>>[] = [];
    for (let i = 0; i < 5; i++) sends.push(await send(ws, b));
    await db.sql`update email_sends set status = 'skipped', provider_message_id = null where id = ${sends[4].sendId}`;
    for (const s of sends.slice(0, 4)) await deliver("email.delivered", s.emailId, { at: ago(3000) });
    // send 0: two opens, three clicks on two links; send 1: one open (a machine's), one click
    await deliver("email.opened", sends[0].emailId, { at: ago(2000) });
    await deliver("email.opened", sends[0].emailId, { at: ago(1000) });
    for (const link of ["https://example.com/a", "https://example.com/a", "https://example.com/b"])
      await deliver("email.clicked", sends[0].emailId, { at: ago(900), click: { link } });
    await deliver("email.opened", sends[1].emailId, { at: ago(2999) });
    await deliver("email.clicked", sends[1].emailId, {
      at: ago(800),
      click: { link: "https://example.com/a" },
    });
    await deliver("email.bounced", sends[2].emailId);
    await deliver("email.complained", sends[3].emailId);
    // the recipient of send 1 follows the unsubscribe link; a member unsubscribing send 0's contact is no
    // unsubscribe made from the email
    await withService((tx) =>
      unsubscribeContact(tx, { contactId: sends[1].contactId, flow: "unsubscribe_link" }),
    );
    await withService((tx) =>
      unsubscribeContact(tx, {
        contactId: sends[0].contactId,
        workspaceId: ws.id,
        flow: "manual_unsubscribe",
      }),
    );

    const stats = await withUser(ws.owner.claims, (tx) =>
      getBroadcastStats(tx, { workspaceId: ws.id, broadcastId: b }),
    );
    expect(stats).toEqual({
      sent: 4,
      delivered: 4,
      opened_unique: 2,
      clicked_unique: 2,
      bounced: 1,
      complained: 1,
      unsubscribed: 1,
    });
    const report = await withUser(ws.owner.claims, (tx) =>
      getBroadcastReport(tx, { workspaceId: ws.id, broadcastId: b }),
    );
    expect(report!.human).toEqual({ opened_unique: 1, clicked_unique: 2 });
    expect(report!.links).toEqual([
      { url: "https://example.com/a", clicks: 3, unique: 2, human_unique: 2 },
      { url: "https://example.com/b", clicks: 1, unique: 1, human_unique: 1 },
    ]);
    const timelineTotal = (type: string) =>
      Object.values(report!.timeline.values).reduce((sum, v) => sum + (v[type] ?? 0), 0);
    expect(timelineTotal("delivered")).toBe(4);
    expect(timelineTotal("opened")).toBe(1); // the machine's open is not drawn
    expect(report!.timeline.bucket).toBe("hour");
  });

  test("another workspace's broadcast id reads as a made-up one: null, for its owner's id too", async () => {
    const ws = await workspace();
    const other = await workspace();
    const b = await broadcast(other);
    expect(
      await withUser(ws.owner.claims, (tx) => getBroadcastStats(tx, { workspaceId: ws.id, broadcastId: b })),
    ).toBeNull();
    expect(
      await withUser(ws.owner.claims, (tx) =>
        getBroadcastStats(tx, { workspaceId: other.id, broadcastId: b }),
      ),
    ).toBeNull();
    expect(
      await withUser(ws.owner.claims, (tx) =>
        getBroadcastStats(tx, { workspaceId: ws.id, broadcastId: "nope" }),
      ),
    ).toBeNull();
  });
});

describe("email engagement: GET /api/v1/broadcasts/{id} (scope email:read)", () => {
  test("returns the broadcast with the stats the page shows; 403 without email:read, 404 for another workspace's or a made-up id", async () => {
    const ws = await workspace();
    const other = await workspace();
    const b = await broadcast(ws);
    const s = await send(ws, b);
    await deliver("email.delivered", s.emailId, { at: ago(600) });
    await deliver("email.opened", s.emailId, { at: ago(300) });
    await deliver("email.clicked", s.emailId, { at: ago(200), click: { link: "https://example.com/x" } });
    const key = await apiKey(db.sql, ws.id, ["email:read"]);
    const path = `/api/v1/broadcasts/${b}`;
    const res = await call(getBroadcastV1, { path, key: key.raw, params: { id: b } });
    expect(res.status).toBe(200);
    expect(() => broadcastSchema.parse(res.body)).not.toThrow();
    expect(res.body).toMatchObject({ id: b, subject: "News", status: "sent" });
    expect(res.body.stats).toEqual({
      sent: 1,
      delivered: 1,
      opened_unique: 1,
      clicked_unique: 1,
      bounced: 0,
      complained: 0,
      unsubscribed: 0,
    });
    const contactsOnly = await apiKey(db.sql, ws.id, ["contacts:read"]);
    const forbidden = await call(getBroadcastV1, { path, key: contactsOnly.raw, params: { id: b } });
    expect(forbidden).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
    const foreignKey = await apiKey(db.sql, other.id, ["email:read"]);
    const foreign = await call(getBroadcastV1, { path, key: foreignKey.raw, params: { id: b } });
    const madeUp = randomUUID();
    const unknown = await call(getBroadcastV1, { path, key: foreignKey.raw, params: { id: madeUp } });
    expect(foreign).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    expect(unknown.body).toEqual(foreign.body);
    const malformed = await call(getBroadcastV1, { path, key: key.raw, params: { id: "1 or 1=1" } });
    expect(malformed.status).toBe(404);
    const anonymous = await call(getBroadcastV1, { path, key: null, params: { id: b } });
    expect(anonymous).toMatchObject({ status: 401, body: { error: { code: "unauthorized" } } });
  });
});

describe("email engagement: outbound webhooks, privacy, the database boundary", () => {
  test("email.delivered, email.opened, email.clicked and email.bounced reach the endpoints that chose them, as documented", async () => {
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS", "1");
    const ws = await workspace();
    const input = webhookEndpointSchema.parse({
      url: "http://127.0.0.1:9/hooks",
      description: "",
      eventTypes: [
        "email.delivered",
        "email.opened",
        "email.clicked",
        "email.bounced",
      ] satisfies WebhookEventType[],
      enabled: true,
    });
    const { data: endpoint } = await withUser(ws.owner.claims, (tx) =>
      createWebhookEndpoint(tx, { ...input, workspaceId: ws.id }),
    );
    vi.unstubAllEnvs();
    const s = await send(ws, await broadcast(ws));
    await deliver("email.delivered", s.emailId, { at: ago(600) });
    await deliver("email.opened", s.emailId, { at: ago(500) });
    await deliver("email.clicked", s.emailId, { at: ago(400), click: { link: "https://example.com/x" } });
    await deliver("email.delivery_delayed", s.emailId, { at: ago(300) });
    await deliver("email.bounced", s.emailId);
    const rows = await db.sql`
      select event_type, payload from webhook_deliveries where endpoint_id = ${endpoint!.id} and event_type like 'email.%'
      order by created_at, event_type`;
    expect(rows.map((r) => r.event_type)).toEqual([
      "email.delivered",
      "email.opened",
      "email.clicked",
      "email.bounced",
    ]);
    for (const r of rows) {
      expect(() => webhookPayloadSchema(r.event_type).parse(r.payload)).not.toThrow();
      expect(r.payload.data).toMatchObject({ email_send_id: s.sendId, contact_id: s.contactId });
      expect(JSON.stringify(r.payload)).not.toContain("203.0.113.9"); // no IP leaves
    }
  });

  test("privacy: the export lists the contact's email events; erasure keeps the counts but drops IP, agent and link query", async () => {
    const ws = await workspace();
    const b = await broadcast(ws);
    const s = await send(ws, b);
    const bystander = await send(ws, b);
    await deliver("email.delivered", s.emailId, { at: ago(600) });
    await deliver("email.clicked", s.emailId, {
      at: ago(300),
      click: { link: "https://example.com/p?who=me#x" },
    });
    await deliver("email.clicked", bystander.emailId, {
      at: ago(300),
      click: { link: "https://example.com/p?who=b" },
    });
    const exported = await withUser(ws.owner.claims, (tx) =>
      exportContactData(tx, { workspaceId: ws.id, contactId: s.contactId }),
    );
    if (!("data" in exported)) throw new Error("export failed");
    expect(exported.data.tables.email_events.map((e) => [e.type, e.email_send_id])).toEqual([
      ["delivered", s.sendId],
      ["clicked", s.sendId],
    ]);
    const [contact] = await db.sql`select email from contacts where id = ${s.contactId}`;
    await withService((tx) =>
      eraseContact(tx, {
        workspaceId: ws.id,
        contactId: s.contactId,
        confirmation: contact.email,
        actorUserId: null,
      }),
    );
    expect(await eventsOf(s.sendId)).toEqual([
      expect.objectContaining({ type: "delivered" }),
      expect.objectContaining({
        type: "clicked",
        link_url: "https://example.com/p",
        ip: null,
        user_agent: null,
      }),
    ]);
    expect((await eventsOf(bystander.sendId))[0]).toMatchObject({ link_url: "https://example.com/p?who=b" });
    expect(
      await withUser(ws.owner.claims, (tx) => getBroadcastStats(tx, { workspaceId: ws.id, broadcastId: b })),
    ).toMatchObject({ delivered: 1, clicked_unique: 2 });
  });

  test("the contact timeline shows what became of their emails, newest first, a machine's open marked as such", async () => {
    const ws = await workspace();
    const s = await send(ws, await broadcast(ws));
    await db.sql`update email_sends set subject = 'Autumn <news>' where id = ${s.sendId}`;
    await deliver("email.delivered", s.emailId, { at: ago(600) });
    await deliver("email.opened", s.emailId, { at: ago(598) });
    await deliver("email.clicked", s.emailId, { at: ago(300), click: { link: "https://example.com/x" } });
    const { data } = await withUser(ws.owner.claims, (tx) =>
      getContactTimeline(tx, { workspaceId: ws.id, contactId: s.contactId }),
    );
    const email = data.filter((e) => e.kind === "email");
    // the send itself is on the timeline too, dated when it was made (now, after the backdated events)
    expect(email.map((e) => e.text)).toEqual([
      "Email sent. Subject: Autumn <news>",
      "Link clicked. Subject: Autumn <news>. Link: https://example.com/x",
      "Email opened. Subject: Autumn <news>. Made by software (a privacy proxy or link scanner), not the recipient",
      "Email delivered. Subject: Autumn <news>",
    ]);
    expect(email[1].html).toContain("Autumn &lt;news&gt;");
    const other = await workspace();
    const { data: foreign } = await withUser(other.owner.claims, (tx) =>
      getContactTimeline(tx, { workspaceId: other.id, contactId: s.contactId }),
    );
    expect(foreign).toEqual([]);
  });

  test("members read their workspace's events and cannot write one; another workspace's are invisible", async () => {
    const ws = await workspace();
    const other = await workspace();
    const s = await send(ws, await broadcast(ws));
    await deliver("email.delivered", s.emailId);
    expect(await withUser(ws.owner.claims, (tx) => tx`select type from email_events`)).toEqual([
      { type: "delivered" },
    ]);
    expect(await withUser(other.owner.claims, (tx) => tx`select 1 from email_events`)).toEqual([]);
    await expect(
      withUser(
        ws.owner.claims,
        (tx) =>
          tx`insert into email_events (workspace_id, email_send_id, type, occurred_at)
           values (${ws.id}, ${s.sendId}, 'opened', now())`,
      ),
    ).rejects.toMatchObject({ code: "42501" });
    expect(await eventsOf(s.sendId)).toHaveLength(1);
  });
});
