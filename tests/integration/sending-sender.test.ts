import { afterEach, describe, expect, test } from "vitest";
import { withService, withUser } from "@/lib/db/doors";
import { audienceSchema } from "@/lib/email/broadcast-audience";
import { createBroadcast } from "@/lib/email/broadcasts";
import { controlBroadcast } from "@/lib/email/control-broadcast";
import { emailSettingsSchema, getEmailSettings, updateEmailSettings } from "@/lib/email/email-settings";
import { deliverEmail } from "@/lib/email/flows/deliver-email";
import { runBroadcast } from "@/lib/email/flows/run-broadcast";
import { sendEmail } from "@/lib/email/send-email";
import { startFakeResend, type FakeResend } from "../fakes/resend";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

/**
 * Mail leaves in the workspace's name (docs/decisions.md): the platform's address with the
 * workspace's name as the display name, and the workspace's reply-to address; a name or an
 * address cannot add a header.
 */
const db = setupTestDatabase();

let resend: FakeResend | undefined;
async function useResend() {
  resend = await startFakeResend();
  Object.assign(process.env, { RESEND_API_KEY: "re_test_sender", RESEND_BASE_URL: resend.url });
  return resend;
}
afterEach(async () => {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  await resend?.stop();
  resend = undefined;
});

const settings = {
  subscribeFooterEnabled: false,
  subscribeFooterMessage: "Want our news?",
  subscribeFooterLinkText: "Subscribe",
  trackingUrl: null,
  emailTrackingEnabled: false,
};

/** What the fake received beside the fields it names. */
const replyToOf = (email: object) => (email as { reply_to?: unknown }).reply_to;

describe("mail leaves in the workspace's name", () => {
  test("a broadcast and a single email are from the workspace's name at the platform's address, replies to its reply-to address", async () => {
    const fake = await useResend();
    const ws = await createWorkspace(db.sql);
    await db.sql`update workspaces set name = ${'Théâtre "Lumière" <Paris>'} where id = ${ws.id}`;
    const saved = await withUser(ws.owner.claims, (tx) =>
      updateEmailSettings(tx, ws.id, { ...settings, replyTo: "box-office@lumiere.example" }),
    );
    expect(saved).toMatchObject({ data: { email_reply_to: "box-office@lumiere.example" } });
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });

    const { id } = await withUser(ws.owner.claims, (tx) =>
      createBroadcast(tx, {
        workspaceId: ws.id,
        createdBy: ws.owner.id,
        subject: "Season",
        body: "Hello {{unsubscribe_url}}",
        audience: audienceSchema.parse({}),
      }),
    );
    const input = { workspaceId: ws.id, broadcastId: id };
    await withService((tx) => controlBroadcast(tx, { ...input, control: "start" }));
    expect((await runBroadcast(input)).status).toBe("done");

    const queued = await withService((tx) =>
      sendEmail(tx, {
        workspaceId: ws.id,
        contactId: c.id,
        to: c.email,
        kind: "transactional",
        subject: "Your tickets",
        html: "<p>See you</p>",
        text: "See you",
      }),
    );
    expect(await deliverEmail(queued.id)).toEqual({ status: "done", output: { outcome: "sent" } });

    expect(fake.sent).toHaveLength(2);
    for (const email of fake.sent) {
      expect(email.from).toBe('"Théâtre Lumière Paris" <no-reply@example.com>');
      expect(replyToOf(email)).toBe("box-office@lumiere.example");
    }
  });

  test("without a reply-to address no Reply-To is sent; clearing it in the form clears it", async () => {
    const fake = await useResend();
    const ws = await createWorkspace(db.sql);
    await withUser(ws.owner.claims, (tx) =>
      updateEmailSettings(tx, ws.id, { ...settings, replyTo: "a@b.example" }),
    );
    const cleared = emailSettingsSchema.parse({ ...settings, trackingUrl: "", replyTo: "" });
    await withUser(ws.owner.claims, (tx) => updateEmailSettings(tx, ws.id, cleared));
    expect((await withService((tx) => getEmailSettings(tx, ws.id)))?.email_reply_to).toBeNull();
    const c = await createContact(db.sql, ws.id);
    const queued = await withService((tx) =>
      sendEmail(tx, {
        workspaceId: ws.id,
        contactId: c.id,
        to: c.email,
        kind: "transactional",
        subject: "Hi",
        html: "<p>Hi</p>",
        text: "Hi",
      }),
    );
    await deliverEmail(queued.id);
    expect(fake.sent).toHaveLength(1);
    expect(replyToOf(fake.sent[0])).toBeUndefined();
  });

  test("a reply-to address that is not one address is refused with a clear message, and the database refuses a forged one written directly", async () => {
    const parsed = emailSettingsSchema.safeParse({
      ...settings,
      trackingUrl: "",
      replyTo: "hello@example.org, bcc@x.example",
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ["replyTo"],
      message: "Enter an email address, such as hello@example.org, or leave it empty.",
    });

    // an admin writing the column over PostgREST, skipping the form: a second header after a line break
    const ws = await createWorkspace(db.sql);
    await expect(
      withUser(
        ws.owner.claims,
        (tx) =>
          tx`update workspaces set email_reply_to = ${"a@b.example\r\nBcc: all@x.example"} where id = ${ws.id}`,
      ),
    ).rejects.toThrow(/workspaces_email_reply_to_check/);
    const [row] = await db.sql`select email_reply_to from workspaces where id = ${ws.id}`;
    expect(row.email_reply_to).toBeNull();
  });
});
