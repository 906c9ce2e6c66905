import type { Db } from "@/lib/db/doors";

/** The signed-in member's IANA time zone (user_profiles.timezone), 'UTC' when unset. */
export async function getProfileTimezone(db: Db): Promise<string> {
  const [row] = await db<{ timezone: string | null }[]>`
    select timezone from public.user_profiles where id = auth.uid()`;
  return row?.timezone || "UTC";
}
