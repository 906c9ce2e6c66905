import { describe, expect, test } from "vitest";
import { formatInTimeZone } from "date-fns-tz";
import {
  DATE_FORMATS,
  formatDate,
  formatDateOnly,
  formatDateTime,
  formatEventDateTime,
  formatLongDate,
  isoInstant,
} from "@/lib/time/format";
import { isTimeZone, safeTimeZone, timeZones } from "@/lib/time/zones";

// 23:30 UTC on 31 Dec 2025: already 1 Jan 2026 in Berlin, still 31 Dec in New York.
const instant = new Date("2025-12-31T23:30:00Z");

describe("lib/time/format", () => {
  test("renders a timestamp in the viewer's time zone", () => {
    expect(formatDateTime(instant, "Europe/Berlin")).toBe("1 Jan 2026, 00:30 GMT+1");
    expect(formatDateTime(instant, "America/New_York")).toBe("31 Dec 2025, 18:30 EST");
  });

  test("the date is the viewer's calendar day, not the server's", () => {
    expect(formatDate(instant, "Europe/Berlin")).toBe("1 Jan 2026");
    expect(formatDate(instant, "America/New_York")).toBe("31 Dec 2025");
  });

  test("falls back to UTC when the profile has no zone or an unknown one", () => {
    expect(formatDateTime(instant, null)).toBe("31 Dec 2025, 23:30 UTC");
    expect(formatDateTime(instant, undefined)).toBe("31 Dec 2025, 23:30 UTC");
    expect(formatDateTime(instant, "Mars/Olympus_Mons")).toBe("31 Dec 2025, 23:30 UTC");
    expect(safeTimeZone("Not/A_Zone")).toBe("UTC");
  });

  test("accepts ISO strings and epoch milliseconds as well as Dates", () => {
    expect(formatDate("2025-12-31T23:30:00Z", "Asia/Tokyo")).toBe("1 Jan 2026");
    expect(formatDate(instant.getTime(), "UTC")).toBe("31 Dec 2025");
    expect(isoInstant("2025-12-31T23:30:00+01:00")).toBe("2025-12-31T22:30:00.000Z");
  });

  test("a missing value is a dash; a date-only value is that calendar day; events show the weekday", () => {
    expect(formatDateTime(null, "UTC")).toBe("—");
    expect(formatDate(undefined, "UTC")).toBe("—");
    expect(formatDateOnly("2026-03-03")).toBe("3 Mar 2026");
    expect(formatEventDateTime(new Date("2031-06-01T16:00:00Z"), "Europe/Paris")).toBe(
      "Sun 1 Jun 2031, 18:00 GMT+2",
    );
  });

  test("follows daylight saving time in the viewer's zone", () => {
    expect(formatDateTime(new Date("2025-07-01T12:00:00Z"), "America/New_York")).toBe(
      "1 Jul 2025, 08:00 EDT",
    );
  });
});

describe("lib/time/zones", () => {
  test("the choice is the runtime's IANA list plus UTC, each once", () => {
    const zones = timeZones();
    expect(zones[0]).toBe("UTC");
    expect(new Set(zones).size).toBe(zones.length);
    expect(zones).toContain("Europe/Berlin");
    expect(isTimeZone("America/New_York")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Europe/Nowhere")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });
});

describe("lib/time's own formatter is date-fns-tz's output, character for character", () => {
  const zones = [
    "UTC",
    "Europe/Paris",
    "America/New_York",
    "Asia/Kolkata",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
    "America/St_Johns",
    "Asia/Kathmandu",
    "Africa/Casablanca",
    "Pacific/Apia",
  ];
  test("every page format, in zones with odd offsets and daylight saving, over sixty years", () => {
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const formats = [
      [formatDate, DATE_FORMATS.date],
      [formatDateTime, DATE_FORMATS.dateTime],
      [formatEventDateTime, DATE_FORMATS.eventDateTime],
      [formatLongDate, DATE_FORMATS.longDate],
    ] as const;
    for (const zone of zones)
      for (let i = 0; i < 300; i++) {
        const instant = new Date(Date.UTC(1995, 0, 1) + Math.floor(next() * 60 * 365 * 86_400_000));
        for (const [ours, pattern] of formats)
          expect([zone, instant.toISOString(), ours(instant, zone)]).toEqual([
            zone,
            instant.toISOString(),
            formatInTimeZone(instant, zone, pattern),
          ]);
      }
  }, 60_000); // thousands of formats compared: CPU-bound, slow on a busy machine
});
