import { isIP } from "node:net";

/** TRUSTED_PROXY_HOPS unset or not a whole number: 1 (see README, Security). */
export const DEFAULT_TRUSTED_PROXY_HOPS = 1;

export function trustedProxyHops(): number {
  const raw = process.env.TRUSTED_PROXY_HOPS?.trim();
  if (!raw || !/^\d{1,2}$/.test(raw)) return DEFAULT_TRUSTED_PROXY_HOPS;
  return Number(raw);
}

/**
 * The client's IP (docs/decisions.md, "Client IP"): TRUSTED_PROXY_HOPS proxies stand in front of the service
 * and each appends the address it received the request from to X-Forwarded-For, so the client is
 * that many entries from the right; everything left of it was written by the client and is
 * ignored. With fewer entries than hops the leftmost one is taken (every entry came from a
 * trusted proxy). TRUSTED_PROXY_HOPS=0: no proxy, nothing in the headers is trusted, the IP is
 * unknown (null). X-Real-IP is never read: a client can send it. A value that is not an IP
 * address gives null, so the result is safe for an inet column.
 */
export function clientIp(headers: Headers, hops: number = trustedProxyHops()): string | null {
  if (hops <= 0) return null;
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  return normalise(entries[Math.max(0, entries.length - hops)]);
}

function normalise(candidate: string): string | null {
  const unwrapped = candidate
    .replace(/^\[(.*)\](?::\d+)?$/, "$1")
    .replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, "$1");
  const ip =
    unwrapped.startsWith("::ffff:") && isIP(unwrapped.slice(7)) === 4 ? unwrapped.slice(7) : unwrapped;
  return isIP(ip) ? ip : null;
}
