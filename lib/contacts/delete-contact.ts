import type { Db } from "@/lib/db/doors";
import { CONTACT_NOT_FOUND } from "./types";
import { isUuid } from "@/lib/ids/uuid";
import { refused, type Refused } from "@/lib/errors/app-error";

/**
 * Deletes a contact. Spec 2.4.2 is carried by the foreign keys: tags, notes, companies,
 * appointment attendees, campaign enrollments, event registrations, suppressions and
 * agreements go with it (cascade); deals, tasks, transactions and email sends stay, with
 * contact_id set to null. The suppressions stay on the address's list and come back with the
 * address (docs/decisions.md, "Suppressions belong to the address").
 */
export async function deleteContact(
  db: Db,
  input: { workspaceId: string; contactId: string },
): Promise<{ success: true } | Refused> {
  if (!isUuid(input.contactId)) return refused("not_found", CONTACT_NOT_FOUND);
  const deleted = await db`
    delete from public.contacts
    where id = ${input.contactId} and workspace_id = ${input.workspaceId}
    returning id`;
  return deleted.length > 0 ? { success: true } : refused("not_found", CONTACT_NOT_FOUND);
}
