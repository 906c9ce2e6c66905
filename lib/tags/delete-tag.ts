import type { Db } from "@/lib/db/doors";
import { TAG_NOT_FOUND } from "./tag-schemas";
import { isUuid } from "@/lib/ids/uuid";

/** Deletes a tag; it is detached from every contact (contact_tags cascade). */
export async function deleteTag(
  db: Db,
  input: { workspaceId: string; tagId: string },
): Promise<{ success: true } | { success?: false; error: string }> {
  if (!isUuid(input.tagId)) return { error: TAG_NOT_FOUND };
  const deleted = await db`
    delete from public.tags where id = ${input.tagId} and workspace_id = ${input.workspaceId}
    returning id`;
  return deleted.length > 0 ? { success: true } : { error: TAG_NOT_FOUND };
}
