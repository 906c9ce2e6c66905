import type { Db } from "@/lib/db/doors";

/** Whether both the contact and the tag are the workspace's (ids from a URL are checked before use). */
export async function contactAndTagExist(
  db: Db,
  input: { workspaceId: string; contactId: string; tagId: string },
): Promise<boolean> {
  const [found] = await db<{ contact: boolean; tag: boolean }[]>`
    select exists (select 1 from public.contacts where id = ${input.contactId} and workspace_id = ${input.workspaceId}) as contact,
           exists (select 1 from public.tags where id = ${input.tagId} and workspace_id = ${input.workspaceId}) as tag`;
  return found.contact && found.tag;
}
