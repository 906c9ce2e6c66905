import { describe, expect, test } from "vitest";
import { securityHeaders } from "@/lib/http/security-headers";

const header = (rules: ReturnType<typeof securityHeaders>, source: string, key: string) =>
  rules.find((r) => r.source === source)?.headers.find((h) => h.key === key)?.value;

describe("clickjacking and sniffing: security headers on every page", () => {
  test("the dashboard and every page but RSVP refuse framing; nosniff and a referrer policy everywhere", () => {
    const rules = securityHeaders({ appUrl: "http://localhost:3000", dev: false });
    const all = "/((?!rsvp/).*)";
    expect(header(rules, all, "Content-Security-Policy")).toContain("frame-ancestors 'none'");
    expect(header(rules, all, "X-Frame-Options")).toBe("DENY");
    for (const rule of rules) {
      expect(rule.headers).toContainEqual({ key: "X-Content-Type-Options", value: "nosniff" });
      expect(rule.headers).toContainEqual({
        key: "Referrer-Policy",
        value: "strict-origin-when-cross-origin",
      });
      expect(rule.headers.some((h) => h.key === "Strict-Transport-Security")).toBe(false);
    }
    expect(header(rules, "/rsvp/:path*", "Content-Security-Policy")).toContain("frame-ancestors *");
    expect(header(rules, all, "Content-Security-Policy")).not.toContain("unsafe-eval");
  });

  test("HSTS when APP_URL is https", () => {
    const rules = securityHeaders({ appUrl: "https://crm.example.com", dev: false });
    for (const rule of rules)
      expect(rule.headers).toContainEqual({
        key: "Strict-Transport-Security",
        value: "max-age=63072000; includeSubDomains",
      });
  });
});
