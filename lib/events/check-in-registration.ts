import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import { refused, type Result } from "@/lib/errors/app-error";

export const REGISTRATION_NOT_FOUND = "Registration not found.";

/**
 * Checks a registrant in at the event, or undoes it (docs/decisions.md, "Segments": attendance).
 * event_registrations are written by the system only (spec 5.4), so callers run this as the
 * service, and the workspace in the WHERE clause is the only scope: another workspace's
 * registration is not found. Checking in twice keeps the first time.
 */
export async function setRegistrationCheckIn(
  db: Db,
  input: { workspaceId: string; registrationId: string; checkedIn: boolean },
): Promise<Result<{ id: string; event_id: string; contact_id: string; checked_in_at: Date | null }>> {
  if (!isUuid(input.registrationId)) return refused("not_found", REGISTRATION_NOT_FOUND);
  const [row] = await db<{ id: string; event_id: string; contact_id: string; checked_in_at: Date | null }[]>`
    update public.event_registrations
    set checked_in_at = ${input.checkedIn ? db`coalesce(checked_in_at, now())` : db`null`}
    where id = ${input.registrationId} and workspace_id = ${input.workspaceId}
    returning id, event_id, contact_id, checked_in_at`;
  return row ? { data: row } : refused("not_found", REGISTRATION_NOT_FOUND);
}
