import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { withService } from "@/lib/db/doors";
import { sendEmail } from "@/lib/email/send-email";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";
import { startFakeResend, type FakeResend } from "../fakes/resend";

const db = setupTestDatabase();
let resend: FakeResend;
beforeAll(async () => {
  resend = await startFakeResend();
});
afterAll(() => resend.stop());
afterEach(() => {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
});

const body = { subject: "Hello", html: "<p>Hi {{unsubscribe_url}}</p>", text: "Hi {{unsubscribe_url}}" };

async function sendRow(id: string) {
  const [row] = await db.sql`select * from email_sends where id = ${id}`;
  return row;
}

describe("6.4 / 8.3 every email is an email_sends row, sent or skipped", () => {
  test("8.3 marketing to a subscribed contact goes to the dev outbox with the unsubscribe link and headers", async () => {
    const ws = await createWorkspace(db.sql);
    await db.sql`update workspaces set tracking_url = 'https://links.example.com' where id = ${ws.id}`;
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    const result = await withService((tx) =>
      sendEmail(tx, { workspaceId: ws.id, contactId: c.id, to: c.email, kind: "marketing", ...body }),
    );
    expect(result.status).toBe("outbox");
    const row = await sendRow(result.id);
    const url = `https://links.example.com/unsubscribe/${c.id}`;
    expect(row).toMatchObject({ status: "outbox", kind: "marketing", contact_id: c.id, to_email: c.email });
    expect(row.html).toBe(`<p>Hi ${url}</p>`);
    expect(row.headers).toEqual({
      "List-Unsubscribe": `<${url}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });

  test.each([
    ["not opted in", {}, [], "not opted in"],
    ["unsubscribed", { is_subscribed: true, unsubscribed_at: new Date() }, [], "unsubscribed"],
    ["soft suppressed", { is_subscribed: true }, ["unsubscribe"], "unsubscribe suppression"],
    ["manually blocked", { is_subscribed: true }, ["manual"], "manual suppression"],
  ])(
    "8.3 marketing to a contact %s is skipped and logged with the reason",
    async (_n, fields, reasons, reason) => {
      const ws = await createWorkspace(db.sql);
      const c = await createContact(db.sql, ws.id, fields);
      for (const r of reasons)
        await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, ${r})`;
      const result = await withService((tx) =>
        sendEmail(tx, { workspaceId: ws.id, contactId: c.id, to: c.email, kind: "marketing", ...body }),
      );
      expect(result).toMatchObject({ status: "skipped", skipReason: reason });
      expect(await sendRow(result.id)).toMatchObject({
        status: "skipped",
        skip_reason: reason,
        provider: null,
      });
    },
  );

  test("8.3 transactional: sent past soft blocks with the 4.8 footer; skipped past a hard suppression", async () => {
    const ws = await createWorkspace(db.sql);
    const soft = await createContact(db.sql, ws.id, { unsubscribed_at: new Date() });
    const hard = await createContact(db.sql, ws.id, { is_subscribed: true });
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${hard.id}, 'complaint')`;
    const [okSend, hardSend] = await withService(async (tx) => [
      await sendEmail(tx, {
        workspaceId: ws.id,
        contactId: soft.id,
        to: soft.email,
        kind: "transactional",
        ...body,
      }),
      await sendEmail(tx, {
        workspaceId: ws.id,
        contactId: hard.id,
        to: hard.email,
        kind: "transactional",
        ...body,
      }),
    ]);
    const row = await sendRow(okSend.id);
    expect(row.status).toBe("outbox");
    expect(row.html).toContain("{{unsubscribe_url}}");
    expect(row.html).toContain(`/api/subscribe/${soft.id}`);
    expect(row.html).toContain("Subscribe to updates");
    expect(row.headers).toEqual({});
    expect(hardSend).toMatchObject({ status: "skipped", skipReason: "complaint suppression" });
  });

  test("4.8 the workspace's footer toggle and texts control the footer", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    await db.sql`update workspaces set subscribe_footer_message = 'Miss us?', subscribe_footer_link_text = 'Join' where id = ${ws.id}`;
    const on = await withService((tx) =>
      sendEmail(tx, { workspaceId: ws.id, contactId: c.id, to: c.email, kind: "transactional", ...body }),
    );
    expect((await sendRow(on.id)).html).toContain(`Miss us? <a href="`);
    await db.sql`update workspaces set subscribe_footer_enabled = false where id = ${ws.id}`;
    const off = await withService((tx) =>
      sendEmail(tx, { workspaceId: ws.id, contactId: c.id, to: c.email, kind: "transactional", ...body }),
    );
    expect((await sendRow(off.id)).html).not.toContain("/api/subscribe/");
  });

  test("8.3 marketing to an address that is no contact, or to another workspace's contact, is skipped", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    const foreign = await createContact(db.sql, other.id, { is_subscribed: true });
    const [a, b] = await withService(async (tx) => [
      await sendEmail(tx, {
        workspaceId: ws.id,
        contactId: null,
        to: "x@example.test",
        kind: "marketing",
        ...body,
      }),
      await sendEmail(tx, {
        workspaceId: ws.id,
        contactId: foreign.id,
        to: foreign.email,
        kind: "marketing",
        ...body,
      }),
    ]);
    expect(a).toMatchObject({ status: "skipped", skipReason: "not a contact" });
    expect(b).toMatchObject({ status: "skipped", skipReason: "contact not found" });
    expect((await sendRow(b.id)).contact_id).toBeNull();
  });

  test("with RESEND_API_KEY the email goes through Resend with the List-Unsubscribe headers, provider id stored", async () => {
    process.env.RESEND_API_KEY = "re_test";
    process.env.RESEND_BASE_URL = resend.url;
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    const result = await withService((tx) =>
      sendEmail(tx, { workspaceId: ws.id, contactId: c.id, to: c.email, kind: "marketing", ...body }),
    );
    expect(result.status).toBe("sent");
    const delivered = resend.sent.find((e) => e.to === c.email)!;
    expect(delivered.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(await sendRow(result.id)).toMatchObject({
      status: "sent",
      provider: "resend",
      provider_message_id: delivered.id,
    });
  });

  test("a failed Resend call is recorded as 'failed', never thrown", async () => {
    process.env.RESEND_API_KEY = "re_test";
    process.env.RESEND_BASE_URL = resend.url;
    resend.failNext();
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const result = await withService((tx) =>
      sendEmail(tx, { workspaceId: ws.id, contactId: c.id, to: c.email, kind: "transactional", ...body }),
    );
    expect(result.status).toBe("failed");
    expect(await sendRow(result.id)).toMatchObject({ status: "failed", sent_at: null });
  });
});
