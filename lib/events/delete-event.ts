import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";

/** Deletes an event and, by cascade, its registrations. Owners and admins only (RLS). */
export async function deleteEvent(
  db: Db,
  input: { workspaceId: string; eventId: string },
): Promise<Result<{ id: string }>> {
  const [row] = await db`
    delete from public.events where id = ${input.eventId} and workspace_id = ${input.workspaceId} returning id`;
  return row
    ? { data: { id: row.id } }
    : refused("not_found", "This event does not exist or you cannot delete it.");
}
