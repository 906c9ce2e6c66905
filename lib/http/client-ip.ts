import { isIP } from "node:net";

/**
 * The caller's IP: the first address of X-Forwarded-For, as set by the platform's proxy
 * (DESIGN 5; the README states this trust assumption). Null when absent or not an IP, so
 * that it can go straight into an inet column. IPv4-mapped IPv6 and a port are unwrapped.
 */
export function clientIp(headers: Headers): string | null {
  const first = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  if (!first) return null;
  let candidate = first;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(candidate);
  if (bracketed) candidate = bracketed[1];
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(candidate)) candidate = candidate.replace(/:\d+$/, "");
  if (candidate.toLowerCase().startsWith("::ffff:") && isIP(candidate.slice(7)) === 4)
    candidate = candidate.slice(7);
  return isIP(candidate) ? candidate : null;
}
