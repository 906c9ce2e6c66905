import { formatInTimeZone } from "date-fns-tz";

/** A moment as the viewer reads it: in their IANA time zone, e.g. '21 Nov 2026, 14:05 GMT+1'. */
export function formatDateTime(value: Date | string | null | undefined, timeZone: string): string {
  if (!value) return "";
  const date = typeof value === "string" ? new Date(value) : value;
  try {
    return formatInTimeZone(date, timeZone, "d MMM yyyy, HH:mm zzz");
  } catch {
    return formatInTimeZone(date, "UTC", "d MMM yyyy, HH:mm zzz");
  }
}

export function formatDate(value: Date | string | null | undefined, timeZone: string): string {
  if (!value) return "";
  const date = typeof value === "string" ? new Date(value) : value;
  try {
    return formatInTimeZone(date, timeZone, "d MMM yyyy");
  } catch {
    return formatInTimeZone(date, "UTC", "d MMM yyyy");
  }
}
