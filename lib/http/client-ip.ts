import { isIP } from "node:net";

/**
 * The client's IP: the first address of X-Forwarded-For as set by the platform's proxy
 * (Vercel, a reverse proxy, or Next.js itself), else X-Real-IP. Trusting that header is the
 * deployment's assumption, stated in the README. Anything that is not an IP address is ignored.
 */
export function clientIp(headers: Headers): string | null {
  const first = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const candidate = first || headers.get("x-real-ip")?.trim() || "";
  const unwrapped = candidate
    .replace(/^\[(.*)\](?::\d+)?$/, "$1")
    .replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, "$1");
  const ip =
    unwrapped.startsWith("::ffff:") && isIP(unwrapped.slice(7)) === 4 ? unwrapped.slice(7) : unwrapped;
  return isIP(ip) ? ip : null;
}
