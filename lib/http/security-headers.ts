/**
 * Security headers of every response (docs/decisions.md, "Security headers and smaller defences").
 *
 * - CSP: scripts, styles, images, fonts and connections from this origin only (inline scripts
 *   and styles allowed: the App Router's hydration data is inline; 'unsafe-eval' in
 *   development only, for React Refresh); no plugins; <base> pinned.
 * - Framing: the dashboard and every other page refuse to be framed (frame-ancestors 'none' and
 *   X-Frame-Options DENY): clickjacking of member actions. The one exception is the public RSVP
 *   page (/rsvp/…), which organisers may frame on their own sites: it can only register the
 *   person who types their own email into it. Forms are embedded as HTML on the customer's
 *   page (lib/forms/embed-snippet.ts), not framed, so they need no exception.
 * - nosniff, a referrer policy that sends no path or query (tokens, ids) to other sites, and a
 *   permissions policy switching off powerful features.
 * - HSTS when APP_URL is https (two years, subdomains).
 */
export interface HeaderRule {
  source: string;
  headers: { key: string; value: string }[];
}

function csp(frameAncestors: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join("; ");
}

export function securityHeaders(options: { appUrl: string; dev: boolean }): HeaderRule[] {
  const common = [
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
    ...(options.appUrl.startsWith("https://")
      ? [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }]
      : []),
  ];
  return [
    {
      // everything but the public RSVP pages
      source: "/((?!rsvp/).*)",
      headers: [
        ...common,
        { key: "Content-Security-Policy", value: csp("'none'", options.dev) },
        { key: "X-Frame-Options", value: "DENY" },
      ],
    },
    {
      source: "/rsvp/:path*",
      headers: [...common, { key: "Content-Security-Policy", value: csp("*", options.dev) }],
    },
  ];
}
