import type { Db } from "@/lib/db/doors";
import { isUniqueViolation, TAG_EXISTS, TAG_NOT_FOUND, tagNameSchema, type Tag } from "./tag-schemas";
import { isUuid } from "@/lib/ids/uuid";
import { refused, type Result } from "@/lib/errors/app-error";

/** Renames a tag; its contacts keep it. Refuses a name another tag of the workspace has. */
export async function renameTag(
  db: Db,
  input: { workspaceId: string; tagId: string; name: string },
): Promise<Result<Tag>> {
  if (!isUuid(input.tagId)) return refused("not_found", TAG_NOT_FOUND);
  const name = tagNameSchema.safeParse(input.name);
  if (!name.success) return refused("invalid", name.error.issues[0].message);
  try {
    const [tag] = await db.savepoint(
      (sp) => sp<Tag[]>`
        update public.tags set name = ${name.data}
        where id = ${input.tagId} and workspace_id = ${input.workspaceId}
        returning id, workspace_id, name, color, created_at`,
    );
    return tag ? { data: tag } : refused("not_found", TAG_NOT_FOUND);
  } catch (error) {
    if (isUniqueViolation(error, "tags_workspace_name_key")) return refused("conflict", TAG_EXISTS);
    throw error;
  }
}
