import type { Db } from "@/lib/db/doors";

/** A contact's name and email for a page heading, in the given workspace (RLS applies). */
export async function getContactSummary(
  db: Db,
  input: { workspaceId: string; contactId: string },
): Promise<{ id: string; email: string; name: string } | null> {
  const [row] = await db<{ id: string; email: string; name: string }[]>`
    select id, email, concat_ws(' ', first_name, last_name) as name from public.contacts
    where id = ${input.contactId} and workspace_id = ${input.workspaceId}`;
  return row ?? null;
}
