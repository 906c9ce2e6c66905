import type { Db } from "@/lib/db/doors";
import { isTimeZone } from "./zoned-time";

/** The signed-in member's IANA zone (user_profiles.timezone), for showing dates; UTC otherwise. */
export async function viewerTimeZone(db: Db): Promise<string> {
  const [row] = await db`select timezone from public.user_profiles where id = auth.uid()`;
  return row?.timezone && isTimeZone(row.timezone) ? row.timezone : "UTC";
}
