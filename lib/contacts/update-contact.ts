import type { Db } from "@/lib/db/doors";
import { contactColumns, fieldColumns } from "./contact-columns";
import { isUuid } from "@/lib/ids/uuid";
import { firstIssue, updateContactSchema } from "./schemas";
import { CONTACT_NOT_FOUND, DUPLICATE_EMAIL_ERROR, type Contact, type ContactFieldsInput } from "./types";
import { refused, type Result } from "@/lib/errors/app-error";

export interface UpdateContactInput extends ContactFieldsInput {
  workspaceId: string;
  contactId: string;
}

/**
 * Spec 4.15 updateContact: replaces the contact's editable fields (a field left out is
 * cleared; consent and source have their own flows). An email that collides in the
 * workspace (unique violation 23505 on (workspace_id, email)) answers the spec's text.
 * When the email changes, the database moves the contact's suppressions between addresses
 * (public.contacts_after_update; docs/decisions.md, "Suppressions belong to the
 * address"): the old address keeps its 'bounce', the contact its other reasons, and the new
 * address's own come back.
 */
export async function updateContact(db: Db, input: UpdateContactInput): Promise<Result<Contact>> {
  if (!isUuid(input.contactId)) return refused("not_found", CONTACT_NOT_FOUND);
  const parsed = updateContactSchema.safeParse(input);
  if (!parsed.success) return refused("invalid", firstIssue(parsed.error));
  const f = fieldColumns(parsed.data);

  const [before] = await db<{ id: string }[]>`
    select id from public.contacts
    where id = ${input.contactId} and workspace_id = ${input.workspaceId}
    for update`;
  if (!before) return refused("not_found", CONTACT_NOT_FOUND);

  let contact: Contact;
  try {
    // a savepoint, so that a unique violation leaves the caller's transaction usable
    [contact] = await db.savepoint(
      (sp) => sp<Contact[]>`
        update public.contacts c set
          email = ${f.email}, first_name = ${f.first_name}, last_name = ${f.last_name},
          phone = ${f.phone}, address_line1 = ${f.address_line1}, address_line2 = ${f.address_line2},
          city = ${f.city}, state = ${f.state}, postal_code = ${f.postal_code}, country = ${f.country},
          birth_month = ${f.birth_month}, birth_day = ${f.birth_day}
        where c.id = ${input.contactId} and c.workspace_id = ${input.workspaceId}
        returning ${sp.unsafe(contactColumns("c"))}`,
    );
  } catch (error) {
    if (isDuplicateEmail(error)) return refused("contact_exists", DUPLICATE_EMAIL_ERROR, { field: "email" });
    throw error;
  }

  return { data: contact };
}

function isDuplicateEmail(error: unknown): boolean {
  const e = error as { code?: string; constraint_name?: string };
  return e?.code === "23505" && e.constraint_name === "contacts_workspace_email_key";
}
