import { describe, expect, test } from "vitest";
import { todayIn, tomorrowIn } from "@/lib/time/format";
import { safeTimeZone } from "@/lib/time/zones";

describe("a review task is due tomorrow in the owner's time zone (spec 4.4)", () => {
  test.each([
    ["UTC", "2026-03-10T23:30:00Z", "2026-03-11"],
    ["Pacific/Auckland", "2026-03-10T23:30:00Z", "2026-03-12"],
    ["America/Los_Angeles", "2026-03-11T05:00:00Z", "2026-03-11"],
    ["Asia/Kolkata", "2026-12-31T19:00:00Z", "2027-01-02"],
    ["Europe/Berlin", "2026-02-28T12:00:00Z", "2026-03-01"],
    ["America/New_York", "2028-02-29T03:00:00Z", "2028-02-29"], // still the 28th in New York
  ])("4.4: %s at %s → %s", (tz, now, due) => {
    expect(tomorrowIn(tz, new Date(now))).toBe(due);
  });

  test("an unknown or empty zone falls back to UTC", () => {
    expect(safeTimeZone("Mars/Olympus")).toBe("UTC");
    expect(safeTimeZone(null)).toBe("UTC");
    expect(tomorrowIn("Mars/Olympus", new Date("2026-01-31T23:00:00Z"))).toBe("2026-02-01");
    expect(todayIn("Asia/Tokyo", new Date("2026-01-31T23:00:00Z"))).toBe("2026-02-01");
  });
});
