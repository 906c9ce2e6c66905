import { refused, type Result } from "@/lib/errors/app-error";

/**
 * Validation of the allowed_domains a form's editor enters (spec 2.1): hostnames, optionally
 * with a port, or '*.domain.com' wildcards. Pasted URLs are reduced to their host.
 */
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const HOST = new RegExp(`^(\\*\\.)?(${LABEL}(?:\\.${LABEL})*)(?::(\\d{1,5}))?$`);

export type DomainCheck = Result<string>;

export function normalizeAllowedDomain(input: string): DomainCheck {
  let value = input.trim().toLowerCase().replace(/\/+$/, "");
  if (/^https?:\/\//.test(value)) {
    try {
      value = new URL(value).host;
    } catch {
      return refused("invalid", `“${input.trim()}” is not a valid domain.`);
    }
  }
  value = value.replace(/\.(?=:|$)/, "");
  const match = HOST.exec(value);
  if (!match) {
    return value.includes("*")
      ? refused("invalid", `“${input.trim()}”: a wildcard is written as *.domain.com, at the start only.`)
      : refused("invalid", `“${input.trim()}” is not a valid domain.`);
  }
  const [, wildcard, host, port] = match;
  if (wildcard && !host.includes("."))
    return refused(
      "invalid",
      `“${input.trim()}”: a wildcard needs a domain with a dot, such as *.example.com.`,
    );
  if (port && (Number(port) < 1 || Number(port) > 65535))
    return refused("invalid", `“${input.trim()}”: the port must be between 1 and 65535.`);
  return { data: value };
}

/** Parses the editor's list (one per line, or comma-separated); de-duplicated, in order. */
export function parseAllowedDomains(text: string): Result<string[]> {
  const domains: string[] = [];
  for (const part of text.split(/[\n,]+/)) {
    if (!part.trim()) continue;
    const check = normalizeAllowedDomain(part);
    if ("error" in check) return check;
    if (!domains.includes(check.data)) domains.push(check.data);
  }
  if (domains.length > 100) return refused("invalid", "List at most 100 domains.");
  return { data: domains };
}
