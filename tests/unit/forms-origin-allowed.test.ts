import { describe, expect, test } from "vitest";
import { domainMatches, originAllowed, requestOrigin } from "@/lib/forms/origin-allowed";
import { AppError } from "@/lib/errors/app-error";
import { normalizeAllowedDomain, parseAllowedDomains } from "@/lib/forms/allowed-domains";
import { corsHeaders } from "@/lib/forms/cors";

const url = (s: string) => new URL(s);

describe("5.1 wildcard matching", () => {
  test("5.1: *.a.com matches x.a.com and x.y.a.com, not a.com, a.com.evil.com nor evila.com", () => {
    expect(domainMatches("*.a.com", url("https://x.a.com"))).toBe(true);
    expect(domainMatches("*.a.com", url("https://x.y.a.com"))).toBe(true);
    expect(domainMatches("*.a.com", url("https://a.com"))).toBe(false);
    expect(domainMatches("*.a.com", url("https://a.com.evil.com"))).toBe(false);
    expect(domainMatches("*.a.com", url("https://evila.com"))).toBe(false);
    expect(domainMatches("*.a.com", url("https://x.evila.com"))).toBe(false);
  });

  test("5.1: a plain entry matches its hostname exactly, case-insensitively, on any port and scheme", () => {
    expect(domainMatches("shop.test", url("https://SHOP.test"))).toBe(true);
    expect(domainMatches("shop.test", url("http://shop.test:8080"))).toBe(true);
    expect(domainMatches("shop.test", url("https://www.shop.test"))).toBe(false);
    expect(domainMatches("shop.test", url("https://shop.test.evil"))).toBe(false);
  });

  test("5.1: an entry with a port matches only that port (default ports included)", () => {
    expect(domainMatches("localhost:4000", url("http://localhost:4000"))).toBe(true);
    expect(domainMatches("localhost:4000", url("http://localhost:4001"))).toBe(false);
    expect(domainMatches("shop.test:443", url("https://shop.test"))).toBe(true);
  });

  test("5.1: an empty list is open mode; otherwise a missing origin is refused", () => {
    expect(originAllowed([], null)).toBe(true);
    expect(originAllowed(["a.com"], null)).toBe(false);
    expect(originAllowed(["b.com", "*.a.com"], url("https://x.a.com"))).toBe(true);
  });

  test("5.1: Origin first; Referer's origin when Origin is absent or 'null'; non-web schemes ignored", () => {
    expect(requestOrigin("https://a.com", "https://b.com/x")?.hostname).toBe("a.com");
    expect(requestOrigin(null, "https://b.com/page?q=1")?.hostname).toBe("b.com");
    expect(requestOrigin("null", "https://b.com/")?.hostname).toBe("b.com");
    expect(requestOrigin("file://", null)).toBeNull();
    expect(requestOrigin(null, "javascript:alert(1)")).toBeNull();
    expect(requestOrigin(null, "not a url")).toBeNull();
  });
});

describe("2.1 allowed_domains validation", () => {
  test("2.1: hostnames, host:port and *.domain.com are accepted; pasted URLs are reduced to their host", () => {
    expect(normalizeAllowedDomain(" Shop.Example.com ")).toEqual({ data: "shop.example.com" });
    expect(normalizeAllowedDomain("*.example.com")).toEqual({ data: "*.example.com" });
    expect(normalizeAllowedDomain("localhost:4000")).toEqual({ data: "localhost:4000" });
    expect(normalizeAllowedDomain("https://www.example.com/contact")).toEqual({ data: "www.example.com" });
    expect(normalizeAllowedDomain("127.0.0.1")).toEqual({ data: "127.0.0.1" });
  });

  test("2.1: a misplaced or bare wildcard, spaces, schemes other than http(s) and bad ports are refused", () => {
    for (const bad of [
      "*.com",
      "a.*.com",
      "*example.com",
      "ex ample.com",
      "*",
      "ftp://x.com",
      "x.com:99999",
      "-x.com",
      "a..com",
    ])
      expect(normalizeAllowedDomain(bad)).toHaveProperty("error.code", "invalid");
  });

  test("2.1: a list is split on lines and commas, de-duplicated, and refused whole on one bad entry", () => {
    expect(parseAllowedDomains("a.com\n*.b.com, a.com\n\n")).toEqual({ data: ["a.com", "*.b.com"] });
    expect(parseAllowedDomains("a.com\n*.com")).toEqual({
      error: new AppError("invalid", "“*.com”: a wildcard needs a domain with a dot, such as *.example.com."),
    });
    expect(parseAllowedDomains("")).toEqual({ data: [] });
  });
});

describe("4.2 CORS headers", () => {
  test("4.2 CORS: open mode echoes any Origin; whitelist mode only a listed one; never credentials", () => {
    expect(corsHeaders([], "https://x.test")["Access-Control-Allow-Origin"]).toBe("https://x.test");
    expect(corsHeaders(["*.a.com"], "https://w.a.com")["Access-Control-Allow-Origin"]).toBe(
      "https://w.a.com",
    );
    expect(corsHeaders(["*.a.com"], "https://a.com.evil.com")).toEqual({ Vary: "Origin" });
    expect(corsHeaders(null, "https://x.test")).toEqual({ Vary: "Origin" });
    expect(JSON.stringify(corsHeaders([], "https://x.test"))).not.toContain("Credentials");
  });
});
