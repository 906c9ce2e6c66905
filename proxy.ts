import { NextResponse, type NextRequest } from "next/server";

/**
 * RFC 8058: mail clients unsubscribe with a POST to the List-Unsubscribe URL, which is the
 * /unsubscribe/{contact_id} page. A page cannot take a POST, so that POST is rewritten to the
 * route handler /api/unsubscribe/{contact_id}; a GET (a person opening the link) reaches the page.
 */
export function proxy(request: NextRequest) {
  if (request.method !== "POST") return NextResponse.next();
  const url = request.nextUrl.clone();
  url.pathname = `/api${url.pathname}`;
  return NextResponse.rewrite(url);
}

export const config = { matcher: "/unsubscribe/:contactId" };
