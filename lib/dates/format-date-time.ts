import { formatInTimeZone } from "date-fns-tz";

/** A timestamp as the viewer reads it: 'Mar 5, 2026, 14:07 (Europe/Paris)' style, in their zone. */
export function formatDateTime(value: Date | string | null, timeZone: string): string {
  if (!value) return "—";
  return formatInTimeZone(new Date(value), timeZone, "MMM d, yyyy, HH:mm");
}

/** The machine-readable form for <time dateTime>. */
export function isoDateTime(value: Date | string): string {
  return new Date(value).toISOString();
}
