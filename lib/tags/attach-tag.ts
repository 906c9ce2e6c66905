import type { Db } from "@/lib/db/doors";
import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import { TAG_NOT_FOUND } from "./tag-schemas";
import { isUuid } from "@/lib/ids/uuid";
import { refused, type Refused } from "@/lib/errors/app-error";

/**
 * Tags a contact. Attaching a tag the contact already has is a no-op (spec 2.10:
 * conflicts ignored); `attached` says whether a row was added. The contact and the tag
 * must both belong to the workspace.
 */
export async function attachTag(
  db: Db,
  input: { workspaceId: string; contactId: string; tagId: string },
): Promise<{ success: true; attached: boolean } | Refused> {
  if (!isUuid(input.contactId)) return refused("not_found", CONTACT_NOT_FOUND);
  if (!isUuid(input.tagId)) return refused("not_found", TAG_NOT_FOUND);
  const [found] = await db<{ contact: boolean; tag: boolean; attached: boolean }[]>`
    with ins as (
      insert into public.contact_tags (contact_id, tag_id, workspace_id)
      select c.id, t.id, c.workspace_id
      from public.contacts c join public.tags t on t.workspace_id = c.workspace_id
      where c.id = ${input.contactId} and t.id = ${input.tagId} and c.workspace_id = ${input.workspaceId}
      on conflict (contact_id, tag_id) do nothing
      returning 1
    )
    select
      exists (select 1 from public.contacts where id = ${input.contactId} and workspace_id = ${input.workspaceId}) as contact,
      exists (select 1 from public.tags where id = ${input.tagId} and workspace_id = ${input.workspaceId}) as tag,
      exists (select 1 from ins) as attached`;
  if (!found.contact) return refused("not_found", CONTACT_NOT_FOUND);
  if (!found.tag) return refused("not_found", TAG_NOT_FOUND);
  return { success: true, attached: found.attached };
}
