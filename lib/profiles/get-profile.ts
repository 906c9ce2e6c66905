import type { Db } from "@/lib/db/doors";

export interface Profile {
  id: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  timezone: string;
}

/** The signed-in user's own profile (auth.uid()), or null when it has none. */
export async function getProfile(db: Db): Promise<Profile | null> {
  const [row] = await db<Profile[]>`
    select id, email, first_name as "firstName", last_name as "lastName", timezone
    from public.user_profiles where id = auth.uid()`;
  return row ?? null;
}
