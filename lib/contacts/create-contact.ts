import type { Db } from "@/lib/db/doors";
import { writeConsent } from "@/lib/consent/consent-door";
import { contactColumns, fieldColumns } from "./contact-columns";
import { createContactSchema, firstIssue } from "./schemas";
import { DUPLICATE_EMAIL_ERROR, type Contact, type ContactFieldsInput } from "./types";
import { refused, type Result } from "@/lib/errors/app-error";

export interface CreateContactInput extends ContactFieldsInput {
  workspaceId: string;
  isSubscribed?: boolean;
  /** the creating member's IP, recorded as opt_in_ip when isSubscribed */
  ip?: string | null;
  /** 'manual' (a member, the default) or 'api' (a v1 key, docs/api.md) */
  source?: "manual" | "api";
}

export const MANUAL_CONSENT_SOURCE = "Manual Consent";

/**
 * Spec 4.15 createContact: a contact created by a member (source 'manual'), or through the API
 * (source 'api'). Rejects a
 * duplicate email in the workspace and a birth month without a day (or the reverse), or
 * either out of range. With isSubscribed the consent is recorded: opt_in_source
 * 'Manual Consent', the time and the member's IP. Trusts workspaceId (the caller's
 * current workspace; RLS still refuses any other).
 */
export async function createContact(db: Db, input: CreateContactInput): Promise<Result<Contact>> {
  const parsed = createContactSchema.safeParse(input);
  if (!parsed.success) return refused("invalid", firstIssue(parsed.error));
  const { isSubscribed, ...fields } = parsed.data;
  const f = fieldColumns(fields);
  // with consent, through the consent door (docs/decisions.md, "The database is the boundary")
  const write = () => insertContact(db, input, f, isSubscribed);
  return isSubscribed ? writeConsent(db, input.workspaceId, write) : write();
}

async function insertContact(
  db: Db,
  input: CreateContactInput,
  f: ReturnType<typeof fieldColumns>,
  isSubscribed: boolean,
): Promise<Result<Contact>> {
  const [contact] = await db<Contact[]>`
    insert into public.contacts (
      workspace_id, source, email, first_name, last_name, phone, address_line1, address_line2,
      city, state, postal_code, country, birth_month, birth_day,
      is_subscribed, opt_in_timestamp, opt_in_source, opt_in_ip)
    values (
      ${input.workspaceId}, ${input.source ?? "manual"}, ${f.email}, ${f.first_name}, ${f.last_name}, ${f.phone},
      ${f.address_line1}, ${f.address_line2}, ${f.city}, ${f.state}, ${f.postal_code}, ${f.country},
      ${f.birth_month}, ${f.birth_day}, ${isSubscribed},
      ${isSubscribed ? db`now()` : null}, ${isSubscribed ? MANUAL_CONSENT_SOURCE : null},
      ${isSubscribed ? (input.ip ?? null) : null}::inet)
    on conflict (workspace_id, email) do nothing
    returning ${db.unsafe(contactColumns("contacts"))}`;
  if (!contact) return refused("contact_exists", DUPLICATE_EMAIL_ERROR, { field: "email" });
  if (isSubscribed) {
    await db`
      insert into public.consent_events (workspace_id, contact_id, action, flow, source, ip, actor_user_id)
      values (${contact.workspace_id}, ${contact.id}, 'subscribed', 'create_contact', ${MANUAL_CONSENT_SOURCE},
              ${contact.opt_in_ip}::inet, auth.uid())`;
  }
  return { data: contact };
}
