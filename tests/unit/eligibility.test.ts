import { describe, expect, test } from "vitest";
import { blockedFromMarketingOnly, ineligibilityReason } from "@/lib/consent/eligibility";
import type { SuppressionReason } from "@/lib/consent/email-status";

const subscribed = { is_subscribed: true, unsubscribed_at: null };
const contact = (
  over: Partial<{ is_subscribed: boolean; unsubscribed_at: Date | null }>,
  s: SuppressionReason[] = [],
) => ({
  ...subscribed,
  ...over,
  suppressions: s,
});

describe("8.3 email eligibility", () => {
  test.each(["bounce", "complaint", "manual"] as const)(
    "8.3 hard suppression '%s' blocks all email, marketing and transactional",
    (reason) => {
      expect(ineligibilityReason("marketing", contact({}, [reason]))).toBe(`${reason} suppression`);
      expect(ineligibilityReason("transactional", contact({}, [reason]))).toBe(`${reason} suppression`);
    },
  );

  test.each([
    ["an 'unsubscribe' suppression", contact({}, ["unsubscribe"]), "unsubscribe suppression"],
    ["is_subscribed false", contact({ is_subscribed: false }), "not opted in"],
    ["unsubscribed_at set", contact({ unsubscribed_at: new Date() }), "unsubscribed"],
  ])("8.3 soft: %s blocks marketing only", (_name, c, reason) => {
    expect(ineligibilityReason("marketing", c)).toBe(reason);
    expect(ineligibilityReason("transactional", c)).toBeNull();
    expect(blockedFromMarketingOnly(c)).toBe(true);
  });

  test("8.3 marketing eligible only when is_subscribed, unsubscribed_at null and no suppression of any reason", () => {
    expect(ineligibilityReason("marketing", contact({}))).toBeNull();
    expect(blockedFromMarketingOnly(contact({}))).toBe(false);
  });

  test("8.3 transactional eligible when no bounce, complaint or manual suppression exists", () => {
    expect(
      ineligibilityReason(
        "transactional",
        contact({ is_subscribed: false, unsubscribed_at: new Date() }, ["unsubscribe"]),
      ),
    ).toBeNull();
    expect(ineligibilityReason("transactional", contact({ is_subscribed: false }))).toBeNull();
  });

  test("8.3 a hard suppression is reported before a soft one, and is not 'blocked from marketing only'", () => {
    const c = contact({ unsubscribed_at: new Date() }, ["unsubscribe", "bounce"]);
    expect(ineligibilityReason("marketing", c)).toBe("bounce suppression");
    expect(blockedFromMarketingOnly(c)).toBe(false);
  });
});
