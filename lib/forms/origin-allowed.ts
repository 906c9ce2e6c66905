/**
 * Spec 5.1, browser mode: the request's Origin (or, without one, the origin of its Referer)
 * is matched against the form's allowed_domains. An entry is a hostname ('example.com'),
 * optionally with a port ('localhost:4000'), or a wildcard '*.example.com' that matches
 * every subdomain at any depth but not example.com itself. An empty list is open mode.
 */

/** The origin the request comes from: Origin unless absent or 'null', else Referer's origin. */
export function requestOrigin(origin: string | null, referer: string | null): URL | null {
  return parseWebOrigin(origin && origin !== "null" ? origin : null) ?? parseWebOrigin(referer);
}

function parseWebOrigin(value: string | null): URL | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

const DEFAULT_PORT: Record<string, string> = { "http:": "80", "https:": "443" };

function hostname(url: URL): string {
  return url.hostname.toLowerCase().replace(/\.$/, "");
}

/** Whether one allowed_domains entry matches the origin. */
export function domainMatches(entry: string, origin: URL): boolean {
  const [host, port] = entry
    .trim()
    .toLowerCase()
    .split(/:(?=\d+$)/);
  if (port && (origin.port || DEFAULT_PORT[origin.protocol]) !== port) return false;
  const name = hostname(origin);
  if (host.startsWith("*.")) {
    const suffix = host.slice(1); // '.example.com'
    return name.endsWith(suffix) && name.length > suffix.length;
  }
  return name === host;
}

export function originAllowed(allowedDomains: readonly string[], origin: URL | null): boolean {
  if (allowedDomains.length === 0) return true;
  if (!origin) return false;
  return allowedDomains.some((entry) => domainMatches(entry, origin));
}
