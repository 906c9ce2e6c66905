import type { Db } from "@/lib/db/doors";
import { emailStatus, type EmailStatus, type SuppressionReason } from "@/lib/consent/email-status";
import { contactColumns } from "./contact-columns";
import { CONTACT_NOT_FOUND, type Contact, type TagRef } from "./types";
import { isUuid } from "@/lib/ids/uuid";
import { refused, type Result } from "@/lib/errors/app-error";

export interface ProfileName {
  first_name: string | null;
  last_name: string | null;
}

export interface ContactDetails {
  contact: Contact;
  tags: TagRef[];
  suppressions: { reason: SuppressionReason; created_at: Date }[];
  emailStatus: EmailStatus;
  /** the profile that last changed the contact; null when the system did (or it is gone) */
  lastModifiedBy: ProfileName | null;
  /** the profile that created it, for manually created contacts only */
  createdBy: ProfileName | null;
}

/**
 * Spec 4.15 getContactById: the contact plus the last-modifying profile (first_name,
 * last_name) and, for manually created contacts, the creating profile; with its tags and
 * suppressions for the spec 3.4 badge. Trusts workspaceId (RLS refuses any other).
 */
export async function getContactById(
  db: Db,
  input: { workspaceId: string; contactId: string },
): Promise<Result<ContactDetails>> {
  if (!isUuid(input.contactId)) return refused("not_found", CONTACT_NOT_FOUND);
  const [row] = await db<
    (Contact & {
      tags: TagRef[];
      suppression_list: { reason: SuppressionReason; created_at: string }[];
      modifier: ProfileName | null;
      creator: ProfileName | null;
    })[]
  >`
    select ${db.unsafe(contactColumns("c"))},
      (select json_build_object('first_name', p.first_name, 'last_name', p.last_name)
         from public.user_profiles p where p.id = c.updated_by) as modifier,
      (select json_build_object('first_name', p.first_name, 'last_name', p.last_name)
         from public.user_profiles p where p.id = c.created_by and c.source = 'manual') as creator,
      coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) order by t.name)
         from public.contact_tags ct join public.tags t on t.id = ct.tag_id
         where ct.contact_id = c.id), '[]') as tags,
      coalesce((select json_agg(json_build_object('reason', s.reason, 'created_at', s.created_at) order by s.created_at)
         from public.contact_suppressions s where s.contact_id = c.id), '[]') as suppression_list
    from public.contacts c
    where c.id = ${input.contactId} and c.workspace_id = ${input.workspaceId}`;
  if (!row) return refused("not_found", CONTACT_NOT_FOUND);
  const { tags, suppression_list, modifier, creator, ...contact } = row;
  const suppressions = suppression_list.map((s) => ({
    reason: s.reason,
    created_at: new Date(s.created_at),
  }));
  return {
    data: {
      contact,
      tags,
      suppressions,
      emailStatus: emailStatus(contact, suppressions),
      lastModifiedBy: modifier,
      createdBy: creator,
    },
  };
}
