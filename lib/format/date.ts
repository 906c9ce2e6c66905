import { formatInTimeZone } from "date-fns-tz";
import { isTimeZone } from "./time-zones";

export const FALLBACK_TIME_ZONE = "UTC";

/** The viewer's zone when it is a valid IANA name, else UTC. */
export function viewerTimeZone(timezone: string | null | undefined): string {
  return timezone && isTimeZone(timezone) ? timezone : FALLBACK_TIME_ZONE;
}

type Instant = Date | string | number;

function toDate(value: Instant): Date {
  return value instanceof Date ? value : new Date(value);
}

/**
 * A timestamp as the viewer reads it: in their profile's time zone (fallback UTC), with
 * the zone's abbreviation so the reader never guesses. `pattern` is a date-fns pattern.
 */
export function formatDateTime(
  value: Instant,
  timezone: string | null | undefined,
  pattern = "d MMM yyyy, HH:mm zzz",
): string {
  return formatInTimeZone(toDate(value), viewerTimeZone(timezone), pattern);
}

/** The calendar day a timestamp falls on in the viewer's time zone. */
export function formatDate(value: Instant, timezone: string | null | undefined): string {
  return formatDateTime(value, timezone, "d MMM yyyy");
}

/** The value for a `<time dateTime>` attribute: the instant itself, in ISO 8601 UTC. */
export function isoInstant(value: Instant): string {
  return toDate(value).toISOString();
}
