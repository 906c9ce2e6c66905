import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { refused, type Result } from "@/lib/errors/app-error";

/**
 * Where an outbound webhook may go (docs/decisions.md, "Outbound webhooks"): https only in production, and
 * never to a loopback, private, link-local (cloud metadata, 169.254.169.254), unique-local, carrier-grade
 * NAT, multicast or otherwise reserved address. The address is checked after DNS resolution,
 * in the lookup the connection itself uses (deliver-webhook.ts), so a name that resolves to a
 * public address when the endpoint is saved and to 127.0.0.1 at delivery time (DNS rebinding)
 * is still refused.
 *
 * WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS=1 lifts the address rule for tests and local development
 * (a receiver on this machine); it is refused in production.
 */
export class UnsafeDestinationError extends Error {
  constructor(message = "This webhook URL is not allowed: use a public https address.") {
    super(message);
    this.name = "UnsafeDestinationError";
  }
}

/** Only globally routable unicast addresses: ipaddr.js names every special range, 'unicast' is what is left. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress())
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === "unicast";
}

function privateDestinationsAllowed(): boolean {
  return process.env.WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS === "1" && process.env.NODE_ENV !== "production";
}

/** http is accepted outside production only (a local receiver while developing). */
function httpAllowed(): boolean {
  return process.env.NODE_ENV !== "production";
}

/**
 * The URL as it will be stored, or the reason it is refused. Checks the form only (scheme,
 * host, no credentials, an IP literal's range); names are resolved at each attempt.
 */
export function checkWebhookUrl(raw: string): Result<string> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return refused("invalid", "Enter a full URL, such as https://example.com/webhooks/crm.");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && httpAllowed()))
    return refused("invalid", "The webhook URL must start with https://.");
  if (url.username || url.password)
    return refused("invalid", "The webhook URL must not contain a user name or password.");
  if (url.hash) url.hash = "";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal"))
    if (!privateDestinationsAllowed()) return refused("invalid", new UnsafeDestinationError().message);
  if (ipaddr.isValid(host) && !isPublicAddress(host) && !privateDestinationsAllowed())
    return refused("invalid", new UnsafeDestinationError().message);
  if (url.toString().length > 2000) return refused("invalid", "The webhook URL is too long.");
  return { data: url.toString() };
}

/**
 * An IP literal in the URL connects without a lookup: its range is checked here, at each
 * attempt; a name is checked by safeLookup when the connection resolves it.
 */
export function literalAddressAllowed(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  return !ipaddr.isValid(host) || isPublicAddress(host) || privateDestinationsAllowed();
}

/**
 * A dns.lookup for the delivery's connection that fails when any resolved address is not
 * public: the check and the connection use the same answer.
 */
export const safeLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const list = addresses as unknown as LookupAddress[];
    if (list.length === 0)
      return callback(new UnsafeDestinationError("No address found for the webhook host."), "", 0);
    if (!privateDestinationsAllowed() && list.some((a) => !isPublicAddress(a.address)))
      return callback(new UnsafeDestinationError(), "", 0);
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};
