import { describe, expect, test } from "vitest";
import { isAppleProxyIp, isMachineEngagement, MACHINE_WINDOW_SECONDS } from "@/lib/email/machine-engagement";

const delivered = new Date("2026-11-26T10:00:00Z");
const at = (seconds: number) => new Date(delivered.getTime() + seconds * 1000);
const browser =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

describe("machine opens and clicks (docs/decisions.md, 'Email engagement')", () => {
  test("an open or click within the window of delivery is a machine's; after it, a person's", () => {
    const base = { type: "opened" as const, deliveredAt: delivered, userAgent: null, ip: null };
    expect(isMachineEngagement({ ...base, occurredAt: at(2) })).toBe(true);
    expect(isMachineEngagement({ ...base, occurredAt: at(MACHINE_WINDOW_SECONDS - 1) })).toBe(true);
    expect(isMachineEngagement({ ...base, occurredAt: at(MACHINE_WINDOW_SECONDS + 1) })).toBe(false);
    expect(isMachineEngagement({ ...base, occurredAt: at(-30) })).toBe(true);
    expect(isMachineEngagement({ ...base, deliveredAt: null, occurredAt: at(2) })).toBe(false);
  });

  test("Apple Mail Privacy Protection: the bare 'Mozilla/5.0' agent, or an address in 17.0.0.0/8 (IPv4-mapped too)", () => {
    const late = { type: "clicked" as const, deliveredAt: delivered, occurredAt: at(3600) };
    expect(isMachineEngagement({ ...late, userAgent: "Mozilla/5.0", ip: "198.51.100.1" })).toBe(true);
    expect(isMachineEngagement({ ...late, userAgent: browser, ip: "17.58.100.4" })).toBe(true);
    expect(isAppleProxyIp("::ffff:17.1.2.3")).toBe(true);
    expect(isAppleProxyIp("18.1.2.3")).toBe(false);
    expect(isAppleProxyIp("not an address")).toBe(false);
    expect(isMachineEngagement({ ...late, userAgent: browser, ip: "198.51.100.1" })).toBe(false);
  });

  test("scanners and HTTP libraries by their agent", () => {
    const late = { type: "clicked" as const, deliveredAt: delivered, occurredAt: at(3600), ip: null };
    for (const agent of ["python-requests/2.31.0", "curl/8.4.0", "Mozilla/5.0 (compatible; Googlebot/2.1)"])
      expect(isMachineEngagement({ ...late, userAgent: agent }), agent).toBe(true);
  });
});
