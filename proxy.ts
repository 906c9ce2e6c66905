import { NextResponse, type NextRequest } from "next/server";
import { isHttps } from "@/lib/config";
import {
  contentSecurityPolicy,
  mayBeFramed,
  newNonce,
  STRICT_TRANSPORT_SECURITY,
} from "@/lib/http/security-headers";
import { matchRecipientPath, RECIPIENT_LANG_HEADER, RECIPIENT_PATH_HEADER } from "@/lib/i18n/recipient-paths";

const UNSUBSCRIBE = /^\/unsubscribe\/[^/]+$/;

/**
 * Two jobs before a page renders.
 *
 * RFC 8058: mail clients unsubscribe with a POST to the List-Unsubscribe URL, which is the
 * /unsubscribe/{contact_id} page. A page cannot take a POST, so that POST is rewritten to the
 * route handler /api/unsubscribe/{contact_id}; a GET (a person opening the link) reaches the page.
 *
 * Every other request gets the page's Content-Security-Policy with a fresh nonce, on the request
 * (Next.js reads the nonce there and puts it on its scripts) and on the response (decision record
 * "A strict Content-Security-Policy: scripts by nonce"), and HSTS when APP_URL is https.
 * A recipient page's path and `?lang=` go to the root layout on the request, for its `<html lang>`
 * (docs/decisions.md, "Recipient languages"); any other request has those headers removed.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (request.method === "POST" && UNSUBSCRIBE.test(pathname)) {
    const url = request.nextUrl.clone();
    url.pathname = `/api${pathname}`;
    return NextResponse.rewrite(url);
  }
  const policy = contentSecurityPolicy({
    nonce: newNonce(),
    frameAncestors: mayBeFramed(pathname) ? "*" : "'none'",
    dev: process.env.NODE_ENV === "development",
  });
  const headers = new Headers(request.headers);
  headers.set("Content-Security-Policy", policy);
  headers.delete(RECIPIENT_PATH_HEADER);
  headers.delete(RECIPIENT_LANG_HEADER);
  if (matchRecipientPath(pathname)) {
    headers.set(RECIPIENT_PATH_HEADER, pathname);
    headers.set(RECIPIENT_LANG_HEADER, request.nextUrl.searchParams.get("lang") ?? "");
  }
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  // read at run time, not baked into the build (docs/decisions.md, "One build, any address")
  if (isHttps()) response.headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
  return response;
}

/**
 * Pages only. Route handlers (/api…, including /api-reference) get a nonce-less policy from
 * next.config.ts, and must not pass through here: Next.js buffers at most
 * proxyClientMaxBodySize of a body that reaches the proxy (uploads, webhooks). Server action
 * posts (Next-Action header) skip it for the same reason, and prefetches because they render no
 * document. Static files need no policy.
 */
export const config = {
  matcher: [
    {
      source: "/((?!api|_next/static|_next/image|favicon.ico|robots.txt).*)",
      missing: [
        { type: "header", key: "next-action" },
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
