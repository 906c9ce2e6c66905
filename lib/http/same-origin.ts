import { appUrl } from "@/lib/config";

/**
 * A cookie-authenticated request that changes data must come from this site's own pages: some
 * browsers send cookies with cross-site requests. The Origin must be this host or APP_URL; a
 * request without one (an older browser) is refused only when it says it is cross-site.
 */
export function sameOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return request.headers.get("sec-fetch-site") !== "cross-site";
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  return (
    URL.canParse(origin) &&
    (new URL(origin).host === host || new URL(origin).origin === new URL(appUrl()).origin)
  );
}
