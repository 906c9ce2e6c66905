import type { Db } from "@/lib/db/doors";
import { TAG_NOT_FOUND } from "./tag-schemas";
import { isUuid } from "@/lib/ids/uuid";
import { refused, type Refused } from "@/lib/errors/app-error";

/** Deletes a tag; it is detached from every contact (contact_tags cascade). */
export async function deleteTag(
  db: Db,
  input: { workspaceId: string; tagId: string },
): Promise<{ success: true } | Refused> {
  if (!isUuid(input.tagId)) return refused("not_found", TAG_NOT_FOUND);
  const deleted = await db`
    delete from public.tags where id = ${input.tagId} and workspace_id = ${input.workspaceId}
    returning id`;
  return deleted.length > 0 ? { success: true } : refused("not_found", TAG_NOT_FOUND);
}
