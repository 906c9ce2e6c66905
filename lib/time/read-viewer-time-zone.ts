import type { Db } from "@/lib/db/doors";
import { safeTimeZone } from "./zones";

/** The signed-in member's zone (user_profiles.timezone, spec 2.10), UTC when unset or unknown. */
export async function readViewerTimeZone(db: Db): Promise<string> {
  const [row] = await db<{ timezone: string | null }[]>`
    select timezone from public.user_profiles where id = auth.uid()`;
  return safeTimeZone(row?.timezone);
}
