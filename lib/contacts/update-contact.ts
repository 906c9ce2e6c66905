import type { Db } from "@/lib/db/doors";
import { writeConsent } from "@/lib/consent/consent-door";
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
 * When the email changes, 'bounce' suppressions are deleted (they belonged to the old
 * address); 'complaint', 'unsubscribe' and 'manual' ones are kept.
 */
export async function updateContact(db: Db, input: UpdateContactInput): Promise<Result<Contact>> {
  if (!isUuid(input.contactId)) return refused("not_found", CONTACT_NOT_FOUND);
  const parsed = updateContactSchema.safeParse(input);
  if (!parsed.success) return refused("invalid", firstIssue(parsed.error));
  const f = fieldColumns(parsed.data);

  const [before] = await db<{ email: string }[]>`
    select email from public.contacts
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

  if (contact.email !== before.email) await clearBounce(db, contact);
  return { data: contact };
}

/** The old address's bounce goes, through the consent door (docs/decisions.md, "The database is the boundary"). */
function clearBounce(db: Db, contact: Contact): Promise<void> {
  return writeConsent(db, contact.workspace_id, async () => {
    const removed = await db`
      delete from public.contact_suppressions
      where workspace_id = ${contact.workspace_id} and contact_id = ${contact.id} and reason = 'bounce'
      returning id`;
    if (removed.length > 0) {
      await db`
        insert into public.consent_events (workspace_id, contact_id, action, flow, reason, actor_user_id)
        values (${contact.workspace_id}, ${contact.id}, 'unsuppressed', 'email_change', 'bounce', auth.uid())`;
    }
  });
}

function isDuplicateEmail(error: unknown): boolean {
  const e = error as { code?: string; constraint_name?: string };
  return e?.code === "23505" && e.constraint_name === "contacts_workspace_email_key";
}
