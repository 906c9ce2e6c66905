import type { Db } from "@/lib/db/doors";
import type { ContactRow, ContactSource, PersonFields } from "./contact-row";
import { diffContact, writeAuditNote, type FieldChange } from "./diff-and-audit";

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
}

export interface MergeContactResult {
  contact: ContactRow;
  created: boolean;
  overwritten: FieldChange[];
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

  const row = { ...fields, ...extraFor(null), workspace_id: input.workspaceId, email, source: input.source };
  const [found] = await db<(ContactRow & { created: boolean })[]>`
    with created as (
      insert into public.contacts ${db(row)}
      on conflict (workspace_id, email) do nothing
      returning *
    ), stored as (
      select * from public.contacts
      where workspace_id = ${input.workspaceId} and email = ${email}
      for update
    )
    select true as created, * from created
    union all
    select false, * from stored where not exists (select from created)`;
  const { created, ...foundRow } = found ?? { created: false };
  if (created) return { contact: foundRow as ContactRow, created: true, overwritten: [] };
  // no row at all: a concurrent writer created the contact after this statement's snapshot
  const [stored] = found
    ? [foundRow as ContactRow]
    : await db<ContactRow[]>`
        select * from public.contacts
        where workspace_id = ${input.workspaceId} and email = ${email}
        for update`;
  const { updates, overwritten } = diffContact(stored, fields, input.mode);
  const changes = { ...updates, ...withoutUnchanged(stored, extraFor(stored)) };
  if (Object.keys(changes).length === 0) return { contact: stored, created: false, overwritten };

  const [contact] = await db<ContactRow[]>`
    update public.contacts set ${db(changes)} where id = ${stored.id} returning *`;
  if (input.audit !== false) await writeAuditNote(db, contact, overwritten, input.via);
  return { contact, created: false, overwritten };
}
