import type { Db } from "@/lib/db/doors";
import { contactColumns } from "./contact-columns";
import type { ContactRow, ContactSource, PersonFields } from "./contact-row";
import { diffContact, writeAuditNote, type FieldChange } from "./diff-and-audit";
import { diffCustomFields, type CustomFieldOverwrite } from "./custom-fields/diff-custom-fields";
import type { CustomField, CustomFieldValuesInput } from "./custom-fields/types";

export interface MergeContactInput {
  workspaceId: string;
  email: string;
  fields: PersonFields;
  /** The source of a new contact. An existing contact's source is never changed here. */
  source: ContactSource;
  /** 'fill_empty': spec 4.2.2 B.1. 'overwrite': spec 4.10 (changed fields win, audited). */
  mode: "fill_empty" | "overwrite";
  /**
   * Further columns (consent, ...) written in the same insert or update (spec 4.10 step 2).
   * A function receives the stored contact (null when creating) so rules such as
   * "keep the consent of an already subscribed contact" can look at it.
   */
  extra?: Record<string, unknown> | ((existing: ContactRow | null) => Record<string, unknown>);
  /** Who changed the contact, for the audit note: 'form submission', 'payment checkout', ... */
  via: string;
  /** false for historical imports, which spec 4.10 exempts from the audit note. */
  audit?: boolean;
  /**
   * Custom field values (already checked with validateCustomFieldValues against `fields`),
   * merged by the same rule as the person fields; an overwritten value is in the note too.
   */
  customFields?: { fields: CustomField[]; values: CustomFieldValuesInput };
}

export interface MergeContactResult {
  contact: ContactRow;
  created: boolean;
  overwritten: FieldChange[];
  /** custom field values replaced (spec 4.10 step 3, as the person fields) */
  customOverwritten: CustomFieldOverwrite[];
}

function cleanFields(fields: PersonFields): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    const trimmed = value?.trim();
    if (trimmed) out[key] = trimmed;
  }
  return out;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b;
}

function withoutUnchanged(stored: ContactRow, extra: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(extra).filter(([key, value]) => !sameValue(stored[key as keyof ContactRow], value)),
  );
}

/**
 * Creates the contact, or merges into the existing one of that email (the one writer every
 * flow uses: forms, verification, payments, ticketing).
 *
 * One statement inserts the contact or, when the email is taken, reads the stored contact
 * under a row lock (one round trip for either case).
 *
 * Concurrent creation (spec 4.2.2 B.3, 4.4 step 3): the insert is `on conflict do nothing`,
 * which waits for a concurrent inserter and yields no row instead of raising 23505 (and,
 * unlike a caught 23505, leaves the caller's transaction usable). The statement's snapshot
 * predates that inserter's row, so it returns nothing; the row is then read under a row lock
 * and merged with the same rules.
 */
export async function mergeContact(db: Db, input: MergeContactInput): Promise<MergeContactResult> {
  const email = input.email.trim().toLowerCase();
  const fields = cleanFields(input.fields);
  const extraFor = (existing: ContactRow | null) =>
    typeof input.extra === "function" ? input.extra(existing) : (input.extra ?? {});

  const custom = input.customFields;
  const initial = custom ? diffCustomFields(custom.fields, {}, custom.values, "fill_empty").updates : {};
  const row = {
    ...fields,
    ...extraFor(null),
    ...(Object.keys(initial).length > 0 ? { custom_fields: db.json(initial) } : {}),
    workspace_id: input.workspaceId,
    email,
    source: input.source,
  };
  const [found] = await db<(ContactRow & { created: boolean })[]>`
    with created as (
      insert into public.contacts ${db(row)}
      on conflict (workspace_id, email) do nothing
      returning ${db.unsafe(contactColumns("contacts"))}
    ), stored as (
      select ${db.unsafe(contactColumns("contacts"))} from public.contacts
      where workspace_id = ${input.workspaceId} and email = ${email}
      for update
    )
    select true as created, * from created
    union all
    select false, * from stored where not exists (select from created)`;
  const { created, ...foundRow } = found ?? { created: false };
  if (created)
    return { contact: foundRow as ContactRow, created: true, overwritten: [], customOverwritten: [] };
  // no row at all: a concurrent writer created the contact after this statement's snapshot
  const [stored] = found
    ? [foundRow as ContactRow]
    : await db<ContactRow[]>`
        select ${db.unsafe(contactColumns("contacts"))} from public.contacts
        where workspace_id = ${input.workspaceId} and email = ${email}
        for update`;
  const { updates, overwritten } = diffContact(stored, fields, input.mode);
  const customDiff = custom
    ? diffCustomFields(custom.fields, stored.custom_fields ?? {}, custom.values, input.mode)
    : { updates: {}, overwritten: [] };
  const changes: Record<string, unknown> = { ...updates, ...withoutUnchanged(stored, extraFor(stored)) };
  if (Object.keys(customDiff.updates).length > 0)
    changes.custom_fields = db.json({ ...stored.custom_fields, ...customDiff.updates });
  const customOverwritten = customDiff.overwritten;
  if (Object.keys(changes).length === 0)
    return { contact: stored, created: false, overwritten, customOverwritten };

  const [contact] = await db<ContactRow[]>`
    update public.contacts set ${db(changes)} where id = ${stored.id}
    returning ${db.unsafe(contactColumns("contacts"))}`;
  if (input.audit !== false)
    await writeAuditNote(db, contact, [...overwritten, ...customOverwritten], input.via);
  return { contact, created: false, overwritten, customOverwritten };
}
