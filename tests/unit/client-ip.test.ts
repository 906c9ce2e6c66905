import { describe, expect, test } from "vitest";
import { clientIp } from "@/lib/http/client-ip";

test("the client IP is the first X-Forwarded-For address; junk is ignored", () => {
  expect(clientIp(new Headers({ "x-forwarded-for": "203.0.113.7, 10.0.0.1" }))).toBe("203.0.113.7");
  expect(clientIp(new Headers({ "x-forwarded-for": "::ffff:198.51.100.2" }))).toBe("198.51.100.2");
  expect(clientIp(new Headers({ "x-forwarded-for": "[2001:db8::1]:443" }))).toBe("2001:db8::1");
  expect(clientIp(new Headers({ "x-forwarded-for": "203.0.113.7:5555" }))).toBe("203.0.113.7");
  expect(clientIp(new Headers({ "x-real-ip": "198.51.100.9" }))).toBe("198.51.100.9");
  expect(clientIp(new Headers({ "x-forwarded-for": "<script>" }))).toBeNull();
  expect(clientIp(new Headers())).toBeNull();
});

const h = (xff?: string) => new Headers(xff === undefined ? {} : { "x-forwarded-for": xff });

describe("DESIGN 5: the client IP is the first address of X-Forwarded-For", () => {
  test("takes the first of several addresses", () => {
    expect(clientIp(h("203.0.113.7, 10.0.0.1, 10.0.0.2"))).toBe("203.0.113.7");
    expect(clientIp(h("2001:db8::1, 10.0.0.1"))).toBe("2001:db8::1");
  });
  test("unwraps a port, brackets and IPv4-mapped IPv6", () => {
    expect(clientIp(h("203.0.113.7:5123"))).toBe("203.0.113.7");
    expect(clientIp(h("[2001:db8::1]:443"))).toBe("2001:db8::1");
    expect(clientIp(h("::ffff:203.0.113.7"))).toBe("203.0.113.7");
  });
  test("null when absent or not an address, so it is safe for an inet column", () => {
    expect(clientIp(h())).toBeNull();
    expect(clientIp(h(""))).toBeNull();
    expect(clientIp(h("unknown, 10.0.0.1"))).toBeNull();
    expect(clientIp(h("'; drop table contacts; --"))).toBeNull();
  });
});
