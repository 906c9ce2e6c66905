import { expect, test } from "vitest";
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
