import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import { refused, type Result } from "@/lib/errors/app-error";
import { checkInRegistrationRow, type CheckInAuthor } from "./tickets/check-in";

export const REGISTRATION_NOT_FOUND = "Registration not found.";

/**
 * Checks a registrant in at the event, or undoes it (docs/decisions.md, "Segments": attendance;
 * "One check-in per registration"). event_registrations are written by the system only (spec 5.4),
 * so callers run this as the service, and the workspace in the WHERE clause is the only scope:
 * another workspace's registration is not found. A check-in is an event_check_ins row, as a scan
 * makes, under the same unique key: checking in twice keeps the first time and author. Undoing
 * removes the row (and attendance a ticketing provider reported).
 */
export async function setRegistrationCheckIn(
  db: Db,
  input: { workspaceId: string; registrationId: string; checkedIn: boolean; by?: CheckInAuthor },
): Promise<Result<{ id: string; event_id: string; contact_id: string; checked_in_at: Date | null }>> {
  if (!isUuid(input.registrationId)) return refused("not_found", REGISTRATION_NOT_FOUND);
  const scope = { workspaceId: input.workspaceId, registrationId: input.registrationId };
  if (input.checkedIn)
    await checkInRegistrationRow(db, { ...scope, by: input.by ?? { label: null, source: "dashboard" } });
  else
    await db`delete from public.event_check_ins
             where workspace_id = ${input.workspaceId} and registration_id = ${input.registrationId}`;
  const [row] = await db<{ id: string; event_id: string; contact_id: string; checked_in_at: Date | null }[]>`
    update public.event_registrations
    set checked_in_at = ${input.checkedIn ? db`coalesce(checked_in_at, now())` : db`null`}
    where id = ${input.registrationId} and workspace_id = ${input.workspaceId}
    returning id, event_id, contact_id, checked_in_at`;
  return row ? { data: row } : refused("not_found", REGISTRATION_NOT_FOUND);
}
