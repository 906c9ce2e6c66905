import { describe, expect, test } from "vitest";
import { emailSettingsSchema } from "@/lib/email/email-settings";

const base = {
  subscribeFooterMessage: "Not subscribed.",
  subscribeFooterLinkText: "Subscribe",
  trackingUrl: "",
};

describe("4.8 / 4.7 email settings", () => {
  test("4.8: the footer toggle is a checkbox: 'on' is true, absent is false; texts are trimmed", () => {
    expect(emailSettingsSchema.parse({ ...base, subscribeFooterEnabled: "on" }).subscribeFooterEnabled).toBe(
      true,
    );
    const off = emailSettingsSchema.parse({ ...base, subscribeFooterMessage: "  Hi  " });
    expect(off).toMatchObject({
      subscribeFooterEnabled: false,
      subscribeFooterMessage: "Hi",
      trackingUrl: null,
    });
  });

  test("4.7: the tracking URL must be https, without credentials, query or fragment; a trailing slash is dropped", () => {
    expect(
      emailSettingsSchema.parse({ ...base, trackingUrl: "https://links.example.com/" }).trackingUrl,
    ).toBe("https://links.example.com");
    for (const bad of [
      "http://links.example.com",
      "javascript:alert(1)",
      "links.example.com",
      "https://user:pw@links.example.com",
      "https://links.example.com/?x=1",
      "https://links.example.com/#a",
    ])
      expect(emailSettingsSchema.safeParse({ ...base, trackingUrl: bad }).success).toBe(false);
  });

  test("4.8: an empty footer message or link text is refused with a clear message", () => {
    const result = emailSettingsSchema.safeParse({
      ...base,
      subscribeFooterMessage: " ",
      subscribeFooterLinkText: "",
    });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message)).toEqual([
      "Write the footer message.",
      "Write the link text.",
    ]);
  });
});
