/**
 * Security headers of every response (docs/decisions.md, "A strict Content-Security-Policy").
 *
 * - CSP of the pages (set per request by proxy.ts, with a fresh nonce): a script runs only if it
 *   carries this response's nonce, or was loaded by one that does ('strict-dynamic'); no inline
 *   script without the nonce, no event-handler attribute, no javascript: URL, no eval
 *   ('unsafe-eval' in development only, for React's error stacks). Next.js reads the nonce from
 *   the request's CSP header and puts it on its own scripts. <style> elements need the nonce too;
 *   style attributes stay allowed (React's style={…}: a nonce cannot cover an attribute).
 *   Everything else from this origin only; no plugins; no <base>; forms post to this origin.
 * - CSP of what proxy.ts does not see (route handlers under /api and /api-reference, static
 *   files): the same policy without a nonce, so no inline script at all.
 * - Framing: the dashboard and every other page refuse to be framed (frame-ancestors 'none' and
 *   X-Frame-Options DENY): clickjacking of member actions. The one exception is the public RSVP
 *   page (/rsvp/…), which organisers may frame on their own sites: it can only register the
 *   person who types their own email into it. Forms are embedded as HTML on the customer's
 *   page (lib/forms/embed-snippet.ts), not framed, so they need no exception.
 * - nosniff, a referrer policy that sends no path or query (tokens, ids) to other sites, and a
 *   permissions policy switching off powerful features.
 * - HSTS when APP_URL is https (two years, subdomains), set by proxy.ts on every page at run time: the
 *   build does not depend on the address it is served at (docs/decisions.md, "One build, any address").
 */
export interface HeaderRule {
  source: string;
  headers: { key: string; value: string }[];
}

/** 128 random bits, base64: unguessable, and new for every response. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** HTTP Strict Transport Security: two years, subdomains included. */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/** Pages that organisers may frame on their own sites (see the module comment). */
export function mayBeFramed(pathname: string): boolean {
  return pathname.startsWith("/rsvp/");
}

/**
 * The Content-Security-Policy of one response. With a nonce: a page rendered by Next.js. Without:
 * a route handler's or a static file's answer, which may load scripts from this origin only.
 */
export function contentSecurityPolicy(options: {
  nonce?: string;
  frameAncestors: "'none'" | "*";
  dev: boolean;
}): string {
  const { nonce, dev } = options;
  const scripts = nonce ? `'self' 'nonce-${nonce}' 'strict-dynamic'` : "'self'";
  // in development Next.js injects <style> elements of its own without the nonce
  const styleElements = nonce && !dev ? `'self' 'nonce-${nonce}'` : "'self' 'unsafe-inline'";
  return [
    "default-src 'self'",
    `script-src ${scripts}${dev ? " 'unsafe-eval'" : ""}`,
    // browsers without the two directives below fall back to this one
    "style-src 'self' 'unsafe-inline'",
    `style-src-elem ${styleElements}`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    // the door scanner's QR decoder runs in a worker its library builds from a blob: URL
    "worker-src 'self' blob:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${options.frameAncestors}`,
  ].join("; ");
}

/**
 * The headers next.config.ts adds. The pages' CSP is not among them: proxy.ts sets it per
 * request, and a second, nonce-less CSP header on a page would block Next.js's inline scripts
 * (the browser enforces every policy it is sent). The one here covers the paths proxy.ts skips:
 * everything under /api (the route handlers, and /api-reference).
 */
export function securityHeaders(options: { dev: boolean }): HeaderRule[] {
  const common = [
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  ];
  return [
    // everything but the public RSVP pages
    { source: "/((?!rsvp/).*)", headers: [...common, { key: "X-Frame-Options", value: "DENY" }] },
    { source: "/rsvp/:path*", headers: common },
    {
      // the door scanner uses the camera (docs/decisions.md, "Signed tickets"); of two rules
      // setting one header, the last wins
      source: "/events/:eventId/scan",
      headers: [
        ...common.filter((h) => h.key !== "Permissions-Policy"),
        { key: "Permissions-Policy", value: "camera=(self), microphone=(), geolocation=(), payment=()" },
        { key: "X-Frame-Options", value: "DENY" },
      ],
    },
    {
      // the paths proxy.ts skips (its matcher): route handlers
      source: "/(api.*)",
      headers: [
        {
          key: "Content-Security-Policy",
          value: contentSecurityPolicy({ frameAncestors: "'none'", dev: options.dev }),
        },
      ],
    },
  ];
}
