import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";

/** Spec 2.9: the auto_subscribe_attendees toggle of the workspace's connection. */
export async function setAutoSubscribeAttendees(
  db: Db,
  input: { workspaceId: string; enabled: boolean },
): Promise<Result<{ enabled: boolean }>> {
  const rows = await db`
    update public.ticketing_connections set auto_subscribe_attendees = ${input.enabled}
    where workspace_id = ${input.workspaceId} returning auto_subscribe_attendees`;
  if (rows.length === 0) return refused("not_found", "Connect Eventbrite first.");
  return { data: { enabled: rows[0].auto_subscribe_attendees } };
}
