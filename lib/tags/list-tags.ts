import type { Db } from "@/lib/db/doors";
import type { Tag } from "./tag-schemas";

/** The workspace's tags, by name. */
export async function listTags(db: Db, input: { workspaceId: string }): Promise<Tag[]> {
  return db<Tag[]>`
    select id, workspace_id, name, color, created_at from public.tags
    where workspace_id = ${input.workspaceId}
    order by lower(name), name, id`;
}
