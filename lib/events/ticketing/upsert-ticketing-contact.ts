import type { Db } from "@/lib/db/doors";
import type { ContactRow, PersonFields } from "@/lib/contacts/contact-row";
import { mergeContact } from "@/lib/contacts/merge-contact";
import { applyConsent } from "@/lib/consent/apply-consent";
import { decideConsent, type ConsentChange } from "@/lib/consent/consent-rules";
import type { SuppressionReason } from "@/lib/consent/email-status";

/**
 * The contact of a real-time ticketing registration (spec 4.5 steps 3 and 5, 4.10):
 * created with source 'ticketing' or merged with diff-and-audit ('overwrite'), and, when the
 * connection auto-subscribes attendees, opted in unless a complaint suppression exists,
 * in the same update.
 */
export async function upsertTicketingContact(
  db: Db,
  input: {
    workspaceId: string;
    email: string;
    fields: PersonFields;
    autoSubscribe: boolean;
    via: string;
  },
): Promise<{ contact: ContactRow; created: boolean }> {
  let change: ConsentChange | null = null;
  if (input.autoSubscribe) {
    const rows = await db`
      select s.reason from public.contact_suppressions s
      join public.contacts c on c.id = s.contact_id
      where c.workspace_id = ${input.workspaceId} and c.email = ${input.email.trim().toLowerCase()}`;
    const suppressions = rows.map((r) => r.reason as SuppressionReason);
    const decision = decideConsent("ticketing_auto_subscribe", { contact: null, suppressions });
    change = "skip" in decision ? null : decision;
  }
  const { contact, created } = await mergeContact(db, {
    workspaceId: input.workspaceId,
    email: input.email,
    fields: input.fields,
    source: "ticketing",
    mode: "overwrite",
    via: input.via,
    extra: () => change?.columns ?? {},
  });
  if (change) await applyConsent(db, { workspaceId: input.workspaceId, contactId: contact.id, change });
  return { contact, created };
}
