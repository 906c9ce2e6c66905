import { afterEach, describe, expect, test } from "vitest";
import { clientIp, trustedProxyHops } from "@/lib/http/client-ip";

const h = (xff?: string) => new Headers(xff === undefined ? {} : { "x-forwarded-for": xff });

describe("client IP: the client is TRUSTED_PROXY_HOPS entries from the right of X-Forwarded-For", () => {
  afterEach(() => {
    delete process.env.TRUSTED_PROXY_HOPS;
  });

  test("one hop: the single value is the client; behind an appending proxy the client's own entries are ignored", () => {
    expect(clientIp(h("203.0.113.7"), 1)).toBe("203.0.113.7");
    expect(clientIp(h("6.6.6.6, 203.0.113.7"), 1)).toBe("203.0.113.7");
    expect(clientIp(h("1.1.1.1, 2.2.2.2,203.0.113.7"), 1)).toBe("203.0.113.7");
  });

  test("two hops (a CDN in front of nginx): second from the right", () => {
    expect(clientIp(h("6.6.6.6, 203.0.113.7, 10.0.0.1"), 2)).toBe("203.0.113.7");
    expect(clientIp(h("203.0.113.7"), 2)).toBe("203.0.113.7");
  });

  test("zero hops: nothing in the headers is trusted", () => {
    expect(clientIp(h("203.0.113.7"), 0)).toBeNull();
    expect(clientIp(new Headers({ "x-real-ip": "198.51.100.9" }), 1)).toBeNull();
  });

  test("the default is one hop; junk settings fall back to it", () => {
    expect(trustedProxyHops()).toBe(1);
    process.env.TRUSTED_PROXY_HOPS = "2";
    expect(trustedProxyHops()).toBe(2);
    expect(clientIp(h("6.6.6.6, 203.0.113.7, 10.0.0.1"))).toBe("203.0.113.7");
    process.env.TRUSTED_PROXY_HOPS = "-3";
    expect(trustedProxyHops()).toBe(1);
  });

  test("unwraps a port, brackets and IPv4-mapped IPv6", () => {
    expect(clientIp(h("203.0.113.7:5123"))).toBe("203.0.113.7");
    expect(clientIp(h("[2001:db8::1]:443"))).toBe("2001:db8::1");
    expect(clientIp(h("::ffff:203.0.113.7"))).toBe("203.0.113.7");
  });

  test("null when absent or not an address, so it is safe for an inet column", () => {
    expect(clientIp(h())).toBeNull();
    expect(clientIp(h(""))).toBeNull();
    expect(clientIp(h("10.0.0.1, unknown"))).toBeNull();
    expect(clientIp(h("'; drop table contacts; --"))).toBeNull();
    expect(clientIp(h("<script>"))).toBeNull();
  });
});
