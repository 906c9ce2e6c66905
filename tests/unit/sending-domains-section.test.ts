import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { SendingDomains } from "@/components/email/sending-domains";
import type { SendingDomain } from "@/lib/email/sending-domains";

/** Settings → Email, "Sending domains" (docs/decisions.md, "Sending domains and warm-up"). */
const action = async () => ({});
const domain = (status: SendingDomain["status"], name = "mail.example.org"): SendingDomain => ({
  id: "00000000-0000-4000-8000-000000000001",
  workspace_id: "00000000-0000-4000-8000-000000000002",
  domain: name,
  status,
  provider_domain_id: "d_1",
  region: "us-east-1",
  created_at: new Date(),
  verified_at: status === "verified" ? new Date() : null,
  last_checked_at: null,
  dmarc: { found: true, record: "v=DMARC1; p=none", policy: "none", checked_at: "2031-01-01T00:00:00Z" },
  records: [
    {
      record: "SPF",
      name: "send",
      type: "MX",
      ttl: "Auto",
      status: "pending",
      value: "feedback-smtp.us-east-1.amazonses.com",
      priority: 10,
    },
    {
      record: "DKIM",
      name: "resend._domainkey",
      type: "TXT",
      ttl: "Auto",
      status: "pending",
      value: "p=MIGf",
    },
  ],
});
const render = (domains: SendingDomain[], canEdit = true) =>
  renderToString(
    createElement(SendingDomains, {
      domains,
      sender: { email_from_name: null, email_from_local: null, email_from_domain: null },
      canEdit,
      addAction: action,
      checkAction: action,
      removeAction: action,
      senderAction: action,
    }),
  );

describe("the sending domains section", () => {
  test("a pending domain lists its DNS records, each name and value with a Copy button of its own accessible name", () => {
    const html = render([domain("pending")]);
    expect(html).toContain("Checking DNS");
    expect(html).toContain("resend._domainkey");
    expect(html).toContain('aria-label="Copy the value of the DKIM TXT record"');
    expect(html).toContain('aria-label="Copy the name of the SPF MX record"');
    expect(html).toContain("a record exists (policy none)");
    expect(html).toContain("Check now");
    expect(html).toMatch(/Remove the domain mail\.example\.org/);
  });

  test("the From fields are disabled until a domain is verified, then offer the verified domains", () => {
    expect(render([domain("pending")])).toMatch(/<fieldset[^>]*disabled=""[^>]*><legend>From address/);
    const verified = render([domain("verified"), domain("pending", "other.example.org")]);
    expect(verified).not.toMatch(/<fieldset[^>]*disabled=""[^>]*><legend>From address/);
    expect(verified).toContain('<option value="mail.example.org">');
    expect(verified).not.toContain('<option value="other.example.org">');
  });

  test("a member sees the domains but no add form, Check now or Remove", () => {
    const html = render([domain("pending")], false);
    expect(html).toContain("mail.example.org");
    expect(html).toContain("Only owners and admins can add sending domains.");
    expect(html).not.toContain("Add domain");
    expect(html).not.toContain("Check now");
  });
});
