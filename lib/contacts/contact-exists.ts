import type { Db } from "@/lib/db/doors";

/** Whether the contact is one of the workspace's (ids from a URL are checked before use). */
export async function contactExists(
  db: Db,
  input: { workspaceId: string; contactId: string },
): Promise<boolean> {
  const [contact] = await db`
    select 1 from public.contacts where id = ${input.contactId} and workspace_id = ${input.workspaceId}`;
  return Boolean(contact);
}

/**
 * Locks the workspace's contact for the rest of the transaction (a read-diff-write such as spec
 * 4.10's update must not interleave with another); false when there is no such contact.
 */
export async function lockContact(
  db: Db,
  input: { workspaceId: string; contactId: string },
): Promise<boolean> {
  const [locked] = await db`
    select 1 from public.contacts
    where id = ${input.contactId} and workspace_id = ${input.workspaceId} for update`;
  return Boolean(locked);
}
