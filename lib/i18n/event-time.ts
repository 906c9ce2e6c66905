import { formatEventDateTime, type Instant } from "@/lib/time/format";
import { safeTimeZone } from "@/lib/time/zones";
import type { Translator } from "./translator";

/**
 * An event's time for a recipient, with the weekday and the zone's name, in the reader's language
 * and the zone given (the event's own: the time on the door). English keeps the service's format
 * ('Sun 1 Jun 2031, 18:00 GMT+2', lib/time/format.ts); another language is formatted by Intl
 * ('dim. 1 juin 2031, 18:00 UTC+2').
 */
export function eventDateTime(t: Translator, when: Instant | null | undefined, zone: string | null): string {
  if (t.locale === "en" || when === null || when === undefined || when === "")
    return formatEventDateTime(when, zone);
  return t.intl.formatDate(new Date(when), {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: safeTimeZone(zone),
    timeZoneName: "short",
  });
}
