import type { Db } from "@/lib/db/doors";
import { TAG_EXISTS, tagNameSchema, type Tag } from "./tag-schemas";
import { refused, type Result } from "@/lib/errors/app-error";

/** Creates a tag in the workspace; names are unique per workspace. */
export async function createTag(
  db: Db,
  input: { workspaceId: string; name: string; color?: string | null },
): Promise<Result<Tag>> {
  const name = tagNameSchema.safeParse(input.name);
  if (!name.success) return refused("invalid", name.error.issues[0].message);
  const [tag] = await db<Tag[]>`
    insert into public.tags (workspace_id, name, color)
    values (${input.workspaceId}, ${name.data}, ${input.color ?? null})
    on conflict (workspace_id, name) do nothing
    returning id, workspace_id, name, color, created_at`;
  return tag ? { data: tag } : refused("conflict", TAG_EXISTS);
}
