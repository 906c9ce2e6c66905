import { describe, expect, test } from "vitest";
import { withService, withUser } from "@/lib/db/doors";
import { audienceSchema } from "@/lib/email/broadcast-audience";
import { createBroadcast, duplicateBroadcast } from "@/lib/email/broadcasts";
import { brandingSchema, updateBranding } from "@/lib/email/branding";
import { runBroadcast } from "@/lib/email/flows/run-broadcast";
import { renderEmail, renderedMarketingSql } from "@/lib/email/render-email";
import { sendTestBroadcast, testSendAllowed, TEST_SEND_LIMIT } from "@/lib/email/test-send";
import { AppError } from "@/lib/errors/app-error";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

/** Names a contact can have that would be markup, a tag, or a header break if not escaped. */
const HOSTILE = {
  first_name: `<script>alert("x")</script>`,
  last_name: `"><img src=x onerror=alert(1)>{{unsubscribe_url}}`,
  city: "Town\r\nBcc: victim@example.test",
};

const BODY = [
  '# Hello {{first_name | "friend"}} {{ last_name }}',
  "",
  "From {{city}}. <b>raw html</b> [bad](javascript:alert(1)) [leave]({{unsubscribe_url}})",
].join("\n");

async function branded() {
  const ws = await createWorkspace(db.sql);
  await db.sql`update workspaces set postal_address = 'Acme, 1 Main Street' where id = ${ws.id}`;
  return ws;
}

const compose = (ws: TestWorkspace, body: string, format: "markdown" | "text" = "markdown") =>
  withUser(ws.owner.claims, (tx) =>
    createBroadcast(tx, {
      workspaceId: ws.id,
      createdBy: ws.owner.id,
      subject: "News",
      body,
      format,
      audience: audienceSchema.parse({}),
    }),
  );

describe("email templates: Markdown in the branded MJML layout, merge tags", () => {
  test("merge tags never inject HTML: hostile contact fields come out escaped in the HTML part and flat in the text part", async () => {
    const ws = await branded();
    const hostile = await createContact(db.sql, ws.id, { is_subscribed: true, ...HOSTILE });
    const plain = await createContact(db.sql, ws.id, { is_subscribed: true });
    const { id } = await compose(ws, BODY);
    await runBroadcast({ workspaceId: ws.id, broadcastId: id });

    const sends = await db.sql`
      select contact_id, status, html, text_body from email_sends where broadcast_id = ${id}`;
    expect(sends).toHaveLength(2);
    const mine = sends.find((s) => s.contact_id === hostile.id)!;
    expect(mine.status).toBe("outbox");
    expect(mine.html).not.toContain("<script>");
    expect(mine.html).not.toContain("<img src=x");
    expect(mine.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(mine.html).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;{{unsubscribe_url}}");
    // a value is never read again as a tag: the literal {{unsubscribe_url}} of the name stays
    expect((mine.html.match(/\/unsubscribe\//g) ?? []).length).toBe(2); // the link and the footer's
    expect(mine.text_body).toContain("From Town Bcc: victim@example.test.");
    expect(mine.text_body).not.toMatch(/\r|Town\n/);
    // Markdown's raw HTML is shown as text and a javascript: link loses its address
    expect(mine.html).toContain("&lt;b&gt;raw html&lt;/b&gt;");
    expect(mine.html).not.toContain("javascript:");
    // the fallback where the contact has no first name; the branded footer's postal address
    const other = sends.find((s) => s.contact_id === plain.id)!;
    expect(other.html).toContain("Hello friend");
    expect(other.html).toContain("Acme, 1 Main Street");
    expect(other.text_body).toContain("Hello friend");
  });

  test("the SQL send and renderEmail render merge tags alike, for the same contact", async () => {
    const ws = await branded();
    const contact = await createContact(db.sql, ws.id, { is_subscribed: true, ...HOSTILE });
    const { id } = await compose(ws, BODY);
    const [b] = await db.sql`select body_html, body_text from broadcasts where id = ${id}`;
    const [fromSql] = await withService(
      (tx) => tx`
        select r.html, r.text_body
        from (select c.id, c.email, c.first_name, c.last_name, c.city, c.country, null::text as skip
              from contacts c where c.id = ${contact.id}) b
        cross join (select id, tracking_url from public.workspaces where id = ${ws.id}) w
        cross join lateral ${renderedMarketingSql(tx, b.body_html, b.body_text)} r`,
    );
    const fromJs = renderEmail(
      {
        kind: "marketing",
        contactId: contact.id,
        html: b.body_html,
        text: b.body_text,
        merge: { ...HOSTILE, email: contact.email, country: null },
      },
      { tracking_url: null, workspace_id: ws.id } as never,
    );
    expect(fromSql).toEqual({ html: fromJs.html, text_body: fromJs.text });
  });

  test("an unknown or malformed merge tag is refused at save time with unknown_merge_tag, and nothing is stored", async () => {
    const ws = await branded();
    for (const [body, format] of [
      ["Hi {{frist_name}}", "markdown"],
      ['Hi {{first_name | friend"}}', "markdown"],
      ["Hi {{first_name", "text"],
      ["[x]({{first_name}})", "markdown"],
    ] as const)
      await expect(compose(ws, body, format)).rejects.toMatchObject({
        code: "unknown_merge_tag",
        field: "body",
      });
    expect(await db.sql`select id from broadcasts where workspace_id = ${ws.id}`).toHaveLength(0);
  });

  test("branding: https logo and #rrggbb colours only; only owners and admins change it", async () => {
    const parse = (input: Record<string, string>) =>
      brandingSchema.safeParse({
        brandColor: "#112233",
        brandAccentColor: "#AABBCC",
        postalAddress: "",
        ...input,
      });
    expect(parse({ brandLogoUrl: "http://example.com/logo.png" }).success).toBe(false);
    expect(parse({ brandLogoUrl: "javascript:alert(1)" }).success).toBe(false);
    expect(parse({ brandLogoUrl: "", brandColor: "red" }).success).toBe(false);
    expect(parse({ brandLogoUrl: "", brandColor: "#12345" }).success).toBe(false);
    const ok = parse({ brandLogoUrl: "https://cdn.example.com/logo.png" });
    expect(ok.success && ok.data).toMatchObject({ brandAccentColor: "#aabbcc", postalAddress: null });

    const ws = await branded();
    const member = await addMember(db.sql, ws.id, "member");
    const input = brandingSchema.parse({
      brandLogoUrl: "https://cdn.example.com/logo.png",
      brandColor: "#112233",
      brandAccentColor: "#445566",
      postalAddress: "2 Side Street",
    });
    expect(await withUser(member.claims, (tx) => updateBranding(tx, ws.id, input))).toEqual({
      error: new AppError("forbidden", "Only owners and admins can change the branding."),
    });
    expect(await withUser(ws.owner.claims, (tx) => updateBranding(tx, ws.id, input))).toMatchObject({
      data: { brand_logo_url: "https://cdn.example.com/logo.png", brand_color: "#112233" },
    });
    // the database itself refuses an http logo, whoever writes it (PostgREST included)
    await expect(
      db.sql`update workspaces set brand_logo_url = 'http://x.test/a.png' where id = ${ws.id}`,
    ).rejects.toThrow(/check constraint/);
    const { id } = await compose(ws, "Hi");
    const [b] = await db.sql`select body_html from broadcasts where id = ${id}`;
    expect(b.body_html).toContain('src="https://cdn.example.com/logo.png"');
    expect(b.body_html).toContain("2 Side Street");
  });

  test("duplicate makes a draft copy of the subject, message and audience; another workspace's broadcast is not reached", async () => {
    const ws = await branded();
    const { id } = await compose(ws, BODY);
    await db.sql`update broadcasts set status = 'sent', sent_at = now() where id = ${id}`;
    const copy = await withUser(ws.owner.claims, (tx) =>
      duplicateBroadcast(tx, { workspaceId: ws.id, broadcastId: id, createdBy: ws.owner.id }),
    );
    const [row] = await db.sql`
      select status, subject, body_markdown, sent_at, scheduled_at from broadcasts where id = ${copy!.id}`;
    expect(row).toEqual({
      status: "draft",
      subject: "News",
      body_markdown: BODY,
      sent_at: null,
      scheduled_at: null,
    });

    const other = await branded();
    expect(
      await withUser(other.owner.claims, (tx) =>
        duplicateBroadcast(tx, { workspaceId: other.id, broadcastId: id, createdBy: other.owner.id }),
      ),
    ).toBeNull();
    expect(await db.sql`select id from broadcasts where workspace_id = ${other.id}`).toHaveLength(0);
  });

  test("send a test to me: only to the member's own address, their name in the tags, limited per hour", async () => {
    const ws = await branded();
    await db.sql`update user_profiles set first_name = 'Grace' where id = ${ws.owner.id}`;
    const [{ email }] = await db.sql`select email from user_profiles where id = ${ws.owner.id}`;
    const { id } = await compose(ws, BODY);
    const sent = await withUser(ws.owner.claims, (tx) =>
      sendTestBroadcast(tx, { workspaceId: ws.id, broadcastId: id, userId: ws.owner.id }),
    );
    expect(sent.to).toBe(email);
    const rows =
      await db.sql`select to_email, subject, kind, html from email_sends where workspace_id = ${ws.id}`;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ to_email: email, subject: "[Test] News", kind: "transactional" });
    expect(rows[0].html).toContain("Hello Grace");

    const allowed = [];
    for (let i = 0; i <= TEST_SEND_LIMIT[0]; i++)
      allowed.push(await withService((tx) => testSendAllowed(tx, ws.owner.id)));
    expect(allowed.filter(Boolean)).toHaveLength(TEST_SEND_LIMIT[0]);
    expect(allowed.at(-1)).toBe(false);
  });
});
