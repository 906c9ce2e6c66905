import { describe, expect, test } from "vitest";
import { signLink } from "@/lib/crypto/signed-link";
import { renderEmail, type RenderRecipient } from "@/lib/email/render-email";

const contactId = "11111111-2222-4333-8444-555555555555";
const workspaceId = "99999999-2222-4333-8444-555555555555";
// the links are signed for the contact's workspace (docs/decisions.md, "Signed recipient links")
const unsubscribeSig = signLink("preferences", { workspaceId, contactId });
const subscribeSig = signLink("subscribe", { workspaceId, contactId });
const recipient = (over: Partial<RenderRecipient> = {}): RenderRecipient => ({
  workspace_id: workspaceId,
  is_subscribed: true,
  unsubscribed_at: null,
  suppressions: [],
  tracking_url: null,
  subscribe_footer_enabled: true,
  subscribe_footer_message: "You are not subscribed.",
  subscribe_footer_link_text: "Subscribe <here>",
  ...over,
});
const html = "<p>Hi</p><p><a href='{{unsubscribe_url}}'>Leave</a></p>";
const base = process.env.APP_URL ?? "http://localhost:3000";

describe("4.7 unsubscribe link only in marketing email", () => {
  test("4.7 marketing: {{unsubscribe_url}} resolves to {tracking_url}/unsubscribe/{contact_id}, signed, with RFC 8058 headers", () => {
    const out = renderEmail(
      { kind: "marketing", contactId, html, text: "Bye: {{unsubscribe_url}}" },
      recipient({ tracking_url: "https://t.example.com/" }),
    );
    const url = `https://t.example.com/unsubscribe/${contactId}?sig=${unsubscribeSig}`;
    expect(out.html).toContain(`href='${url}'`);
    expect(out.html).not.toContain("{{unsubscribe_url}}");
    expect(out.text).toBe(`Bye: ${url}`);
    expect(out.headers).toEqual({
      "List-Unsubscribe": `<${url}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });

  test("4.7 marketing without a tracking URL uses the platform URL, and gets a link even without the tag", () => {
    const out = renderEmail({ kind: "marketing", contactId, html: "<p>News</p>", text: "News" }, recipient());
    expect(out.html).toContain(`href="${base}/unsubscribe/${contactId}?sig=${unsubscribeSig}"`);
    expect(out.text).toContain(`Unsubscribe: ${base}/unsubscribe/${contactId}?sig=${unsubscribeSig}`);
  });

  test("4.7 transactional: no unsubscribe link, no List-Unsubscribe headers, {{unsubscribe_url}} left unresolved", () => {
    const out = renderEmail(
      { kind: "transactional", contactId, html, text: "{{unsubscribe_url}}" },
      recipient(),
    );
    expect(out.html).toBe(html);
    expect(out.text).toBe("{{unsubscribe_url}}");
    expect(out.headers).toEqual({});
    expect(out.html).not.toContain("/unsubscribe/");
  });
});

describe("4.8 subscribe footer only where the spec says", () => {
  const footerUrl = `${base}/api/subscribe/${contactId}?sig=${subscribeSig}`;
  test.each([
    ["is_subscribed false", { is_subscribed: false }],
    ["unsubscribed_at set", { unsubscribed_at: new Date() }],
    ["a soft 'unsubscribe' suppression", { suppressions: ["unsubscribe" as const] }],
  ])("4.8 transactional to a contact blocked from marketing (%s) gets the footer, escaped", (_n, over) => {
    const out = renderEmail(
      { kind: "transactional", contactId, html: "<p>Receipt</p>", text: "Receipt" },
      recipient(over),
    );
    expect(out.html).toContain(`You are not subscribed. <a href="${footerUrl}">Subscribe &lt;here&gt;</a>`);
    expect(out.text).toContain(`Subscribe <here>: ${footerUrl}`);
  });

  test.each([
    ["the contact is subscribed", "transactional", {}],
    [
      "the workspace turned the footer off",
      "transactional",
      { is_subscribed: false, subscribe_footer_enabled: false },
    ],
    [
      "the contact has a hard suppression (not eligible for transactional)",
      "transactional",
      { is_subscribed: false, suppressions: ["bounce" as const] },
    ],
    ["the email is marketing", "marketing", { is_subscribed: false }],
  ] as const)("4.8 no footer when %s", (_n, kind, over) => {
    const out = renderEmail({ kind, contactId, html: "<p>x</p>" }, recipient(over));
    expect(out.html).not.toContain("/api/subscribe/");
  });
});
