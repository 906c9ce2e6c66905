import type { Db } from "@/lib/db/doors";

/** The signed-in member's IANA time zone (user_profiles.timezone), UTC when unset or unknown. */
export async function viewerTimezone(db: Db): Promise<string> {
  const [row] = await db`select timezone from public.user_profiles where id = auth.uid()`;
  const zone = row?.timezone as string | undefined;
  if (!zone) return "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone;
  } catch {
    return "UTC";
  }
}
