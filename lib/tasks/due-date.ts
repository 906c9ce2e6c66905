import { formatInTimeZone } from "date-fns-tz";

/** The zone itself when it is a valid IANA name, else 'UTC'. */
export function safeTimeZone(timeZone: string | null | undefined): string {
  if (!timeZone) return "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return timeZone;
  } catch {
    return "UTC";
  }
}

/** Today's calendar date ('YYYY-MM-DD') as seen in a time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return formatInTimeZone(now, safeTimeZone(timeZone), "yyyy-MM-dd");
}

/**
 * Spec 4.4: a review task is due 'tomorrow' in the owner's IANA time zone, stored date-only.
 * Tomorrow is the calendar day after today there, whatever the UTC date is.
 */
export function tomorrowIn(timeZone: string, now: Date = new Date()): string {
  const [y, m, d] = todayIn(timeZone, now).split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}
