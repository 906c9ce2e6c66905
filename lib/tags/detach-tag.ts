import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";

/** Removes a tag from a contact; removing one it does not have is a no-op. */
export async function detachTag(
  db: Db,
  input: { workspaceId: string; contactId: string; tagId: string },
): Promise<{ success: true; detached: boolean }> {
  if (!isUuid(input.contactId) || !isUuid(input.tagId)) return { success: true, detached: false };
  const removed = await db`
    delete from public.contact_tags
    where contact_id = ${input.contactId} and tag_id = ${input.tagId} and workspace_id = ${input.workspaceId}
    returning tag_id`;
  return { success: true, detached: removed.length > 0 };
}
