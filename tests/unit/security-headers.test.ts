import { NextRequest } from "next/server";
import { getScriptNonceFromHeader } from "next/dist/server/app-render/get-script-nonce-from-header";
import { describe, expect, test } from "vitest";
import { contentSecurityPolicy, securityHeaders } from "@/lib/http/security-headers";
import { config, proxy } from "@/proxy";

const header = (rules: ReturnType<typeof securityHeaders>, source: string, key: string) =>
  rules.find((r) => r.source === source)?.headers.find((h) => h.key === key)?.value;

const directive = (policy: string, name: string) =>
  policy
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.split(/\s+/)[0] === name);

/** What the browser would get for a GET of `path`, through proxy.ts. */
function pagePolicy(path: string, method = "GET") {
  const response = proxy(new NextRequest(`http://localhost:3000${path}`, { method }));
  return {
    response,
    sent: response.headers.get("content-security-policy") ?? "",
    // NextResponse.next({ request: { headers } }) hands the page's request headers to Next.js this way
    rendered: response.headers.get("x-middleware-request-content-security-policy") ?? "",
  };
}

describe("clickjacking and sniffing: security headers on every page", () => {
  test("the dashboard and every page but RSVP refuse framing; nosniff and a referrer policy everywhere", () => {
    const rules = securityHeaders({ dev: false });
    const all = "/((?!rsvp/).*)";
    expect(header(rules, all, "X-Frame-Options")).toBe("DENY");
    expect(pagePolicy("/contacts").sent).toContain("frame-ancestors 'none'");
    expect(pagePolicy("/").sent).toContain("frame-ancestors 'none'");
    expect(header(rules, "/(api.*)", "Content-Security-Policy")).toContain("frame-ancestors 'none'");
    for (const rule of rules.filter((r) => r.source !== "/(api.*)")) {
      expect(rule.headers).toContainEqual({ key: "X-Content-Type-Options", value: "nosniff" });
      expect(rule.headers).toContainEqual({
        key: "Referrer-Policy",
        value: "strict-origin-when-cross-origin",
      });
      expect(rule.headers.some((h) => h.key === "Strict-Transport-Security")).toBe(false);
    }
    expect(pagePolicy("/rsvp/00000000-0000-4000-8000-000000000000").sent).toContain("frame-ancestors *");
    expect(header(rules, "/rsvp/:path*", "X-Frame-Options")).toBeUndefined();
    expect(pagePolicy("/contacts").sent).not.toContain("unsafe-eval");
  });

  test("HSTS on every page when APP_URL is https, read at run time (one build, any address); none over http", () => {
    const saved = process.env.APP_URL;
    try {
      process.env.APP_URL = "https://crm.example.com";
      for (const path of ["/", "/contacts", "/rsvp/00000000-0000-4000-8000-000000000000"])
        expect(pagePolicy(path).response.headers.get("strict-transport-security")).toBe(
          "max-age=63072000; includeSubDomains",
        );
      process.env.APP_URL = "http://localhost:3000";
      expect(pagePolicy("/contacts").response.headers.get("strict-transport-security")).toBeNull();
    } finally {
      if (saved === undefined) delete process.env.APP_URL;
      else process.env.APP_URL = saved;
    }
  });
});

describe("stored script: the CSP runs only scripts that carry this response's nonce", () => {
  test("a page's script-src has a nonce, 'strict-dynamic' and no 'unsafe-inline': an injected <img onerror> or inline <script> does not run", () => {
    const { sent } = pagePolicy("/events/00000000-0000-4000-8000-000000000000/edit");
    const scripts = directive(sent, "script-src")!;
    expect(scripts).toMatch(/^script-src 'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'$/);
    expect(scripts).not.toContain("unsafe-inline");
    expect(scripts).not.toContain("unsafe-hashes");
    expect(directive(sent, "default-src")).toBe("default-src 'self'");
    expect(directive(sent, "object-src")).toBe("object-src 'none'");
    expect(directive(sent, "base-uri")).toBe("base-uri 'none'");
    expect(directive(sent, "form-action")).toBe("form-action 'self'");
  });

  test("a fresh nonce for every response, the same on the request Next.js renders and on the response", () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const { sent, rendered } = pagePolicy("/contacts");
      expect(rendered).toBe(sent);
      // what Next.js itself extracts and puts on its scripts
      const nonce = getScriptNonceFromHeader(rendered);
      expect(nonce).toBeTruthy();
      expect(sent).toContain(`'nonce-${nonce}'`);
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(50);
  });

  test("<style> elements need the nonce too; style attributes stay allowed (React's style={…})", () => {
    const { sent } = pagePolicy("/contacts");
    const nonce = getScriptNonceFromHeader(sent);
    expect(directive(sent, "style-src-elem")).toBe(`style-src-elem 'self' 'nonce-${nonce}'`);
    expect(directive(sent, "style-src-attr")).toBe("style-src-attr 'unsafe-inline'");
  });

  test("route handlers' answers (no proxy, no nonce) allow scripts of this origin only", () => {
    const policy = header(securityHeaders({ dev: false }), "/(api.*)", "Content-Security-Policy")!;
    expect(directive(policy, "script-src")).toBe("script-src 'self'");
    expect(policy).not.toContain("nonce-");
  });

  test("development adds only 'unsafe-eval' to scripts (React's error stacks), never 'unsafe-inline'", () => {
    const dev = contentSecurityPolicy({ nonce: "abc", frameAncestors: "'none'", dev: true });
    expect(directive(dev, "script-src")).toBe("script-src 'self' 'nonce-abc' 'strict-dynamic' 'unsafe-eval'");
  });

  test("the proxy sees every page and no route handler; next.config.ts's policy covers exactly the rest", () => {
    const matcher = new RegExp(`^${config.matcher[0].source}$`);
    const routeHandlers = new RegExp(`^${"/(api.*)"}$`);
    const pages = ["/", "/contacts", "/events/x/edit", "/rsvp/x", "/unsubscribe/x", "/sign-in"];
    const handlers = ["/api/health", "/api/forms/x/submit", "/api-reference", "/api-reference/scalar.js"];
    for (const path of pages) expect(matcher.test(path), path).toBe(true);
    for (const path of handlers) expect(matcher.test(path), path).toBe(false);
    for (const path of [...pages, ...handlers])
      expect(matcher.test(path) !== routeHandlers.test(path), path).toBe(true);
    // bodies of server actions are not cut to proxyClientMaxBodySize
    expect(config.matcher[0].missing).toContainEqual({ type: "header", key: "next-action" });
  });

  test("RFC 8058: the one-click unsubscribe POST is still rewritten to its route handler", () => {
    const { response } = pagePolicy("/unsubscribe/00000000-0000-4000-8000-000000000000", "POST");
    expect(response.headers.get("x-middleware-rewrite")).toBe(
      "http://localhost:3000/api/unsubscribe/00000000-0000-4000-8000-000000000000",
    );
  });
});
