import ipaddr from "ipaddr.js";
import { isbot } from "isbot";

/**
 * An open or click this soon after the email was delivered is taken for software: link scanners
 * (Microsoft Defender Safe Links, Mimecast, Proofpoint, Barracuda) fetch every link and image of
 * an incoming email within seconds, before the recipient has seen it; Apple Mail Privacy
 * Protection loads the images as the message arrives (docs/decisions.md, "Email engagement").
 */
export const MACHINE_WINDOW_SECONDS = 10;

/** Apple's own network (17.0.0.0/8), from which Mail Privacy Protection's proxy loads images. */
const APPLE_RANGES = [ipaddr.parseCIDR("17.0.0.0/8")];

export interface EngagementSignal {
  type: "opened" | "clicked";
  occurredAt: Date;
  /** when the send was delivered (its 'delivered' event), else when it was sent; null if neither */
  deliveredAt: Date | null;
  userAgent: string | null;
  ip: string | null;
}

/** True when the address is one of Apple's (the Mail Privacy Protection proxy's egress). */
export function isAppleProxyIp(ip: string | null): boolean {
  if (!ip || !ipaddr.isValid(ip)) return false;
  // an IPv4-mapped IPv6 address counts as its IPv4 address
  const address = ipaddr.process(ip);
  return address.kind() === "ipv4" && APPLE_RANGES.some((range) => address.match(range));
}

/**
 * Whether an open or click was made by software rather than the recipient:
 * - Apple Mail Privacy Protection: its proxy sends the bare user agent "Mozilla/5.0" and comes
 *   from Apple's 17.0.0.0/8;
 * - a crawler, scanner or HTTP library by its user agent (the isbot list);
 * - anything within MACHINE_WINDOW_SECONDS of delivery (scanners that present a browser's agent).
 * Resend gives an IP and user agent with clicks only; an open is judged by its timing alone.
 */
export function isMachineEngagement(signal: EngagementSignal): boolean {
  const agent = signal.userAgent?.trim() ?? "";
  if (agent === "Mozilla/5.0") return true;
  if (isAppleProxyIp(signal.ip)) return true;
  if (agent && isbot(agent)) return true;
  if (signal.deliveredAt) {
    const seconds = (signal.occurredAt.getTime() - signal.deliveredAt.getTime()) / 1000;
    if (seconds < MACHINE_WINDOW_SECONDS) return true;
  }
  return false;
}
