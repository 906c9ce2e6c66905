import { originAllowed, requestOrigin } from "./origin-allowed";

/**
 * Spec 4.2 CORS. Open mode (no allowed domains): the request Origin is echoed back
 * unconditionally. Whitelist mode: Access-Control-Allow-Origin is the request Origin only
 * when that origin is in the list. No credentials are ever allowed.
 */
export function corsHeaders(
  allowedDomains: readonly string[] | null,
  origin: string | null,
): Record<string, string> {
  const headers: Record<string, string> = { Vary: "Origin" };
  if (!origin || !allowedDomains) return headers;
  if (allowedDomains.length === 0 || originAllowed(allowedDomains, requestOrigin(origin, null)))
    headers["Access-Control-Allow-Origin"] = origin;
  return headers;
}

/** The OPTIONS preflight adds what a fetch with a JSON body and an optional key needs. */
export function preflightHeaders(
  allowedDomains: readonly string[] | null,
  origin: string | null,
): Record<string, string> {
  return {
    ...corsHeaders(allowedDomains, origin),
    "Access-Control-Allow-Methods": "POST, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type, X-API-Key",
    "Access-Control-Max-Age": "600",
  };
}
