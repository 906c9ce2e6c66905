import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { withService } from "@/lib/db/doors";
import { signLink } from "@/lib/crypto/signed-link";
import { sendEmail } from "@/lib/email/send-email";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";
import { HANDLERS } from "@/worker/registry";
import { startFakeResend, type FakeResend } from "../fakes/resend";
import { runJob, type JobRow } from "../helpers/jobs";
import { waitFor } from "../helpers/wait-for";
import { setupWorkers } from "../helpers/workers";

const db = setupTestDatabase();
const workers = setupWorkers(db);
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
    const sig = signLink("preferences", { workspaceId: ws.id, contactId: c.id });
    const url = `https://links.example.com/unsubscribe/${c.id}?sig=${sig}`;
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
    expect(row.html).toContain(
      `/api/subscribe/${soft.id}?sig=${signLink("subscribe", { workspaceId: ws.id, contactId: soft.id })}`,
    );
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
});

describe("jobs: Resend is called by the worker, after the commit, with retries", () => {
  const useResend = () => {
    process.env.RESEND_API_KEY = "re_test";
    process.env.RESEND_BASE_URL = resend.url;
  };
  const jobOf = async (emailSendId: string) =>
    (
      await db.sql`select * from pgboss.job where name = 'email-send' and data->>'emailSendId' = ${emailSendId}`
    )[0];
  const requestsFor = (to: string) => resend.sent.filter((e) => e.to === to).length;

  test("with RESEND_API_KEY the email is recorded 'queued' with its job and no provider call inside the transaction", async () => {
    useResend();
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    const before = resend.requests.length;
    const result = await withService(async (tx) => {
      const sent = await sendEmail(tx, {
        workspaceId: ws.id,
        contactId: c.id,
        to: c.email,
        kind: "marketing",
        ...body,
      });
      // still inside the transaction that recorded it: Resend has not been asked
      expect(resend.requests.length).toBe(before);
      return sent;
    });
    expect(result.status).toBe("queued");
    expect(await sendRow(result.id)).toMatchObject({ status: "queued", provider: "resend", sent_at: null });
    expect((await jobOf(result.id)).data).toEqual({
      workspaceId: ws.id,
      emailSendId: result.id,
      jobVersion: 1,
    });

    await workers.inProcess(["email-send"]);
    await waitFor(async () => (await sendRow(result.id)).status === "sent", "the worker delivered the email");
    const delivered = resend.sent.find((e) => e.to === c.email)!;
    expect(delivered.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(await sendRow(result.id)).toMatchObject({ provider: "resend", provider_message_id: delivered.id });
    expect(resend.requests.at(-1)?.idempotencyKey).toBe(`email-send-${result.id}`);
  });

  test("Resend answering 500 twice: the worker retries with backoff and the email is delivered once", async () => {
    useResend();
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const result = await withService((tx) =>
      sendEmail(tx, { workspaceId: ws.id, contactId: c.id, to: c.email, kind: "transactional", ...body }),
    );
    const before = resend.requests.length;
    resend.failNext(2);
    await workers.inProcess(["email-send"]);
    await waitFor(
      async () => (await sendRow(result.id)).status === "sent",
      "delivered after two 500s",
      60_000,
    );
    expect(resend.requests.length - before).toBe(3);
    expect(requestsFor(c.email)).toBe(1);
    expect(await sendRow(result.id)).toMatchObject({ status: "sent", skip_reason: null });
    // the row is recorded before the worker reports the job done
    await waitFor(async () => (await jobOf(result.id)).state === "completed", "the job completed");
    expect((await jobOf(result.id)).retry_count).toBe(2);
  }, 90_000);

  test("the last attempt's failure is recorded 'failed' and the job stays failed", async () => {
    useResend();
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const result = await withService((tx) =>
      sendEmail(tx, { workspaceId: ws.id, contactId: c.id, to: c.email, kind: "transactional", ...body }),
    );
    const job = await jobOf(result.id);
    resend.failNext(1);
    expect(await runJob(HANDLERS["email-send"], { ...job, retry_count: job.retry_limit } as JobRow)).toEqual({
      status: "failed",
      code: "provider_failed",
      message: expect.stringMatching(/Fake failure/),
    });
    expect(await sendRow(result.id)).toMatchObject({ status: "failed", sent_at: null });
    expect((await sendRow(result.id)).skip_reason).toContain("Fake failure");
    expect(requestsFor(c.email)).toBe(0);
  });

  test("8.3 a contact suppressed after the email was queued gets nothing: the row becomes 'skipped'", async () => {
    useResend();
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const result = await withService((tx) =>
      sendEmail(tx, { workspaceId: ws.id, contactId: c.id, to: c.email, kind: "transactional", ...body }),
    );
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, 'bounce')`;
    expect(await runJob(HANDLERS["email-send"], (await jobOf(result.id)) as JobRow)).toEqual({
      status: "done",
      output: { outcome: "skipped" },
    });
    expect(await sendRow(result.id)).toMatchObject({ status: "skipped", skip_reason: "bounce suppression" });
    expect(requestsFor(c.email)).toBe(0);
  });

  test("an address erased (privacy request) after the email was queued is not sent to", async () => {
    useResend();
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const result = await withService((tx) =>
      sendEmail(tx, { workspaceId: ws.id, contactId: c.id, to: c.email, kind: "transactional", ...body }),
    );
    // what erase-contact does to the contact's emails
    await db.sql`update email_sends set to_email = '', subject = '', html = null, text_body = null where id = ${result.id}`;
    expect(await runJob(HANDLERS["email-send"], (await jobOf(result.id)) as JobRow)).toEqual({
      status: "done",
      output: { outcome: "skipped" },
    });
    expect(await sendRow(result.id)).toMatchObject({ status: "skipped", skip_reason: "erased" });
    expect(resend.sent.filter((e) => e.to === "")).toHaveLength(0);
  });

  test("a redacted link is delivered whole and never stored", async () => {
    useResend();
    const secret = "tok_secret_abc";
    const result = await withService((tx) =>
      sendEmail(tx, {
        workspaceId: null,
        contactId: null,
        to: "account@example.test",
        kind: "transactional",
        subject: "Reset",
        html: `<a href="https://x.test/r?t=${secret}">reset</a>`,
        text: `https://x.test/r?t=${secret}`,
        redact: [secret],
      }),
    );
    expect((await sendRow(result.id)).html).not.toContain(secret);
    expect(await runJob(HANDLERS["email-send"], (await jobOf(result.id)) as JobRow)).toEqual({
      status: "done",
      output: { outcome: "sent" },
    });
    const delivered = resend.sent.find((e) => e.to === "account@example.test")!;
    expect(delivered.html).toContain(secret);
    expect(delivered.text).toContain(secret);
    const row = await sendRow(result.id);
    expect(row).toMatchObject({ status: "sent", provider_message_id: delivered.id });
    expect(`${row.html} ${row.text_body}`).not.toContain(secret);
  });
});
