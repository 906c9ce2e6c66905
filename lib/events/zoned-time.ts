import { formatInTimeZone, fromZonedTime } from "date-fns-tz";

/** Whether the runtime knows the IANA zone name. */
export function isTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Every IANA zone the runtime knows, for a picker. */
export function timeZones(): string[] {
  const zones = Intl.supportedValuesOf?.("timeZone") ?? [];
  return zones.includes("UTC") ? zones : ["UTC", ...zones];
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

/** A readable date and time in `zone`, with the zone's abbreviation. */
export function formatInZone(instant: Date | string | null, zone: string, withZone = true): string {
  if (!instant) return "—";
  return formatInTimeZone(instant, zone, withZone ? "EEE d MMM yyyy, HH:mm zzz" : "EEE d MMM yyyy, HH:mm");
}
