import { formatInTimeZone, fromZonedTime } from "date-fns-tz";
import { safeTimeZone } from "./zones";

/**
 * Every date a page or an email shows is formatted here, in a zone given by the caller (the
 * viewer's, lib/time/viewer-time-zone.ts, or an event's own). An unknown zone falls back to
 * UTC; a missing value is shown as '—'.
 */
export const DATE_FORMATS = {
  /** '31 Dec 2025' */
  date: "d MMM yyyy",
  /** '31 Dec 2025, 18:30 EST': the zone's abbreviation, so the reader never guesses */
  dateTime: "d MMM yyyy, HH:mm zzz",
  /** 'Sun 1 Jun 2031, 18:00 GMT+2': an event's times, where the weekday matters */
  eventDateTime: "EEE d MMM yyyy, HH:mm zzz",
  /** 'December 31, 2025': dates written into stored text (a review task's description) */
  longDate: "MMMM d, yyyy",
} as const;

export type Instant = Date | string | number;

const MISSING = "—";

function format(value: Instant | null | undefined, zone: string | null | undefined, pattern: string): string {
  if (value === null || value === undefined || value === "") return MISSING;
  const date = value instanceof Date ? value : new Date(value);
  const fast = FAST[pattern];
  if (fast && !Number.isNaN(date.getTime()))
    return fast(zonedParts(date, safeTimeZone(zone), pattern === DATE_FORMATS.longDate));
  return formatInTimeZone(date, safeTimeZone(zone), pattern);
}

/**
 * The four page formats built from one cached Intl formatter per zone: date-fns-tz builds new
 * Intl formatters on every call (about 0.1 ms each), which a page of a hundred dates paid ten
 * times over. The output is date-fns-tz's, character for character (tests/unit/format-date).
 */
type Parts = Record<
  "weekday" | "day" | "month" | "longMonth" | "year" | "hour" | "minute" | "timeZoneName",
  string
>;

const FAST: Record<string, (p: Parts) => string> = {
  [DATE_FORMATS.date]: (p) => `${p.day} ${p.month} ${p.year}`,
  [DATE_FORMATS.dateTime]: (p) => `${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute} ${p.timeZoneName}`,
  [DATE_FORMATS.eventDateTime]: (p) =>
    `${p.weekday} ${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute} ${p.timeZoneName}`,
  [DATE_FORMATS.longDate]: (p) => `${p.longMonth} ${p.day}, ${p.year}`,
};

const formatters = new Map<string, { short: Intl.DateTimeFormat; long: Intl.DateTimeFormat }>();

function zonedParts(date: Date, timeZone: string, longMonth: boolean): Parts {
  let pair = formatters.get(timeZone);
  if (!pair) {
    pair = {
      short: new Intl.DateTimeFormat("en-US", {
        timeZone,
        weekday: "short",
        day: "numeric",
        month: "short",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
        timeZoneName: "short",
      }),
      long: new Intl.DateTimeFormat("en-US", { timeZone, month: "long" }),
    };
    formatters.set(timeZone, pair);
  }
  const parts = {} as Parts;
  for (const part of pair.short.formatToParts(date))
    if (part.type !== "literal") parts[part.type as keyof Parts] = part.value;
  if (longMonth) parts.longMonth = pair.long.format(date);
  return parts;
}

/** The calendar day an instant falls on in `zone`: '31 Dec 2025'. */
export function formatDate(value: Instant | null | undefined, zone: string | null | undefined): string {
  return format(value, zone, DATE_FORMATS.date);
}

/** An instant in `zone` with the zone's abbreviation: '31 Dec 2025, 18:30 EST'. */
export function formatDateTime(value: Instant | null | undefined, zone: string | null | undefined): string {
  return format(value, zone, DATE_FORMATS.dateTime);
}

/** An event's time in `zone`, with the weekday: 'Sun 1 Jun 2031, 18:00 GMT+2'. */
export function formatEventDateTime(
  value: Instant | null | undefined,
  zone: string | null | undefined,
): string {
  return format(value, zone, DATE_FORMATS.eventDateTime);
}

/** For stored text: 'December 31, 2025'. */
export function formatLongDate(value: Instant | null | undefined, zone: string | null | undefined): string {
  return format(value, zone, DATE_FORMATS.longDate);
}

/** A date-only value ('YYYY-MM-DD', no zone, e.g. a task's due date) as '31 Dec 2025'. */
export function formatDateOnly(value: string | null | undefined): string {
  return value ? format(`${value}T12:00:00Z`, "UTC", DATE_FORMATS.date) : MISSING;
}

/** The value for a `<time dateTime>` attribute: the instant itself, in ISO 8601 UTC. */
export function isoInstant(value: Instant): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** Today's calendar date ('YYYY-MM-DD') as seen in `zone`. */
export function todayIn(zone: string, now: Date = new Date()): string {
  return formatInTimeZone(now, safeTimeZone(zone), "yyyy-MM-dd");
}

/** The calendar day after today in `zone` ('YYYY-MM-DD'), whatever the UTC date is. */
export function tomorrowIn(zone: string, now: Date = new Date()): string {
  const [y, m, d] = todayIn(zone, now).split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/**
 * The instants a range of calendar days covers in `zone` ('YYYY-MM-DD', both ends inclusive,
 * either optional): `start` is the first day's midnight there, `end` the midnight after the last
 * day (exclusive), so "from 1 Mar to 1 Mar" is the whole of that day where the viewer lives.
 */
export function zonedDayRange(
  zone: string,
  from?: string | null,
  to?: string | null,
): { start: Date | null; end: Date | null } {
  const tz = safeTimeZone(zone);
  const midnight = (day: string) => fromZonedTime(`${day}T00:00:00`, tz);
  const dayAfter = (day: string) => {
    const [y, m, d] = day.split("-").map(Number);
    return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  };
  return { start: from ? midnight(from) : null, end: to ? midnight(dayAfter(to)) : null };
}

/** A wall-clock time typed into a datetime-local input ('YYYY-MM-DDTHH:mm') in `zone`, as a UTC instant. */
export function zonedInputToUtc(local: string, zone: string): Date {
  return fromZonedTime(local, zone);
}

/** An instant as the value of a datetime-local input showing the wall clock in `zone`. */
export function utcToZonedInput(instant: Date | string | null, zone: string): string {
  if (!instant) return "";
  return formatInTimeZone(instant, zone, "yyyy-MM-dd'T'HH:mm");
}
