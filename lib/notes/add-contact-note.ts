import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import type { Db } from "@/lib/db/doors";
import { addNote, type Note } from "./add-note";

/**
 * A member's note on a contact's timeline (spec 2.10): the contact must be one of the
 * workspace's (addNote trusts the ids it is given).
 */
export async function addContactNote(
  db: Db,
  /** createdBy: the member; null for a note written with an API key (shown as 'System') */
  input: { workspaceId: string; contactId: string; text: string; createdBy: string | null },
): Promise<{ data: Note } | { error: string }> {
  const [found] = await db`
    select 1 from public.contacts where id = ${input.contactId} and workspace_id = ${input.workspaceId}`;
  if (!found) return { error: CONTACT_NOT_FOUND };
  return addNote(db, { ...input, type: "contact" });
}
