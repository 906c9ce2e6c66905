import { formatInTimeZone } from "date-fns-tz";
import type { Db } from "@/lib/db/doors";
import { safeTimeZone } from "@/lib/tasks/due-date";

/** The signed-in member's time zone (user_profiles.timezone), for showing dates. */
export async function viewerTimeZone(db: Db): Promise<string> {
  const [row] = await db`select timezone from public.user_profiles where id = auth.uid()`;
  return safeTimeZone(row?.timezone);
}

/** 'Mar 3, 2026' in the viewer's zone. */
export function formatDate(date: Date, timeZone: string): string {
  return formatInTimeZone(date, safeTimeZone(timeZone), "MMM d, yyyy");
}

/** 'Mar 3, 2026, 2:05 PM' in the viewer's zone. */
export function formatDateTime(date: Date, timeZone: string): string {
  return formatInTimeZone(date, safeTimeZone(timeZone), "MMM d, yyyy, h:mm a");
}

/** A date-only value ('YYYY-MM-DD', no zone) as 'Mar 3, 2026'. */
export function formatDateOnly(value: string): string {
  return formatInTimeZone(new Date(`${value}T12:00:00Z`), "UTC", "MMM d, yyyy");
}
