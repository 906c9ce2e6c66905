import type { Db } from "@/lib/db/doors";
import { attachTag } from "./attach-tag";
import { tagNameSchema } from "./tag-schemas";
import { isUuid } from "@/lib/ids/uuid";
import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import { refused, type Refused } from "@/lib/errors/app-error";

/**
 * Tags a contact by the tag's name, creating the tag when the workspace has none by that
 * name (matched case-insensitively, so 'vip' finds 'VIP'). Attaching twice is a no-op.
 */
export async function attachTagByName(
  db: Db,
  input: { workspaceId: string; contactId: string; name: string },
): Promise<{ success: true; attached: boolean; tagId: string } | Refused> {
  if (!isUuid(input.contactId)) return refused("not_found", CONTACT_NOT_FOUND);
  const name = tagNameSchema.safeParse(input.name);
  if (!name.success) return refused("invalid", name.error.issues[0].message);
  const [tag] = await db<{ id: string }[]>`
    with existing as (
      select id from public.tags
      where workspace_id = ${input.workspaceId} and lower(name) = lower(${name.data})
      order by (name = ${name.data}) desc, created_at, id limit 1
    ), created as (
      insert into public.tags (workspace_id, name)
      select ${input.workspaceId}, ${name.data} where not exists (select 1 from existing)
      on conflict (workspace_id, name) do nothing
      returning id
    )
    select id from existing union all select id from created`;
  if (!tag) return refused("conflict", "The tag could not be created; try again.");
  const result = await attachTag(db, { ...input, tagId: tag.id });
  return "error" in result ? result : { ...result, tagId: tag.id };
}
