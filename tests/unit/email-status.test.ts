import { describe, expect, test } from "vitest";
import { emailStatus } from "@/lib/consent/email-status";

describe("3.4 email status badge, highest priority first", () => {
  const subscribed = { is_subscribed: true, unsubscribed_at: null };
  const unsubscribed = { is_subscribed: false, unsubscribed_at: new Date() };
  test.each([
    ["1 Spam: a complaint suppression exists", subscribed, ["complaint", "bounce"], "Spam"],
    ["2 Bounced: a bounce suppression exists", subscribed, ["bounce", "unsubscribe"], "Bounced"],
    ["3 Unsubscribed: unsubscribed_at set", unsubscribed, ["unsubscribe"], "Unsubscribed"],
    [
      "3 Unsubscribed wins over is_subscribed",
      { is_subscribed: true, unsubscribed_at: new Date() },
      [],
      "Unsubscribed",
    ],
    ["4 Subscribed: is_subscribed true", subscribed, ["manual"], "Subscribed"],
    ["5 Not Opted In otherwise", { is_subscribed: false, unsubscribed_at: null }, [], "Not Opted In"],
  ])("%s", (_name, contact, reasons, expected) => {
    expect(emailStatus(contact, reasons)).toBe(expected);
  });
});
