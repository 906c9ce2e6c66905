import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { invalid } from "@/lib/workspaces/schemas";
import type { Profile } from "./get-profile";
import { updateProfileSchema, type UpdateProfileInput } from "./schemas";

/**
 * Settings: the signed-in user changes their own name and time zone (an IANA name from
 * Intl.supportedValuesOf('timeZone'), or UTC). RLS lets nobody change another's profile.
 */
export async function updateProfile(db: Db, input: UpdateProfileInput): Promise<Result<Profile>> {
  const parsed = updateProfileSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { firstName, lastName, timezone } = parsed.data;
  const [row] = await db<Profile[]>`
    update public.user_profiles
    set first_name = ${firstName || null}, last_name = ${lastName || null}, timezone = ${timezone}
    where id = auth.uid()
    returning id, email, first_name as "firstName", last_name as "lastName", timezone`;
  if (!row) return refused("not_found", "Your profile could not be found. Sign out and in again.");
  return { data: row };
}
