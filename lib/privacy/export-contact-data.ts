import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { listCustomFields } from "@/lib/contacts/custom-fields/list-custom-fields";
import { contactTopicStates } from "@/lib/consent/topics";
import { CONTACT_CREDENTIALS } from "@/lib/contacts/merge/merge-dependents";

export type ExportRow = Record<string, unknown>;

export interface ContactExport {
  exported_at: string;
  workspace_id: string;
  contact: ExportRow;
  /** the names of the contact's tags (contact_tags holds their ids) */
  tags: string[];
  /** the contact's custom field values with their labels (docs/decisions.md, "Custom fields") */
  custom_fields: { key: string; label: string; personal: boolean; value: unknown }[];
  /** consent per subscription topic (docs/decisions.md, "Subscription topics"), the ledger's proof in tables.consent_events */
  topics: { key: string; name: string; subscribed: boolean; changed_at: Date | null }[];
  /**
   * Every table whose foreign key references the contact (spec 2.4.2 and the rest: consent
   * ledger, form submissions, automation runs, notifications, ...), by table name, plus
   * pending_form_submissions (staged by email, before any contact id exists) and the
   * email_events of the contact's emails.
   */
  tables: Record<string, ExportRow[]>;
}

/** The contacts columns the caller may read, but the portal token, as a select list. */
async function exportedContactColumns(db: Db): Promise<string> {
  const rows = await db<{ name: string }[]>`
    select quote_ident(a.attname) as name from pg_attribute a
    where a.attrelid = 'public.contacts'::regclass and a.attnum > 0 and not a.attisdropped
      and a.attname <> 'portal_token'
      and has_column_privilege(a.attrelid, a.attnum, 'select')
    order by a.attnum`;
  return rows.map((r) => r.name).join(", ");
}

interface Reference {
  table_name: string;
  column_name: string;
  scoped: boolean;
}

/**
 * GDPR article 15: everything stored about one contact of the workspace. The tables are
 * found in the catalog (every foreign key to contacts.id), so a table added later is
 * exported without a change here. Each read is filtered by the workspace and the contact id,
 * and runs as the caller (RLS applies on top).
 */
export async function exportContactData(
  db: Db,
  input: { workspaceId: string; contactId: string },
): Promise<Result<ContactExport>> {
  // every column the caller may read, never the portal token (docs/decisions.md, "Portal sessions")
  const [contact] = await db<ExportRow[]>`
    select ${db.unsafe(await exportedContactColumns(db))}
    from public.contacts where id = ${input.contactId} and workspace_id = ${input.workspaceId}`;
  if (!contact) return refused("not_found", "Contact not found.");
  const references = await db<Reference[]>`
    select c.conrelid::regclass::text as table_name, a.attname as column_name,
           exists (select 1 from pg_attribute w where w.attrelid = c.conrelid and w.attname = 'workspace_id'
                   and not w.attisdropped) as scoped
    from pg_constraint c
    cross join lateral unnest(c.conkey, c.confkey) as k(col, refcol)
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.col
    join pg_attribute r on r.attrelid = c.confrelid and r.attnum = k.refcol
    where c.contype = 'f' and c.confrelid = 'public.contacts'::regclass and r.attname = 'id'
      and has_table_privilege(c.conrelid, 'select')
    order by 1, 2`;
  const tables: Record<string, ExportRow[]> = {};
  for (const ref of references) {
    const name = ref.table_name.replace(/^public\./, "");
    // the contact's portal credentials (their digests) are not data about the person
    // (docs/decisions.md, "Portal sessions"); a member cannot read them anyway
    if (name in CONTACT_CREDENTIALS) continue;
    const rows = await db<ExportRow[]>`
      select * from ${db(`public.${name}`)}
      where ${db(ref.column_name)} = ${input.contactId}
        ${ref.scoped ? db`and workspace_id = ${input.workspaceId}` : db``}`;
    tables[name] = (tables[name] ?? []).concat(rows);
  }
  // what became of the emails sent to the contact (engagement: delivered, opened, clicked, ...):
  // keyed to the send, not to the contact
  tables.email_events = await db<ExportRow[]>`
    select e.* from public.email_events e
    join public.email_sends s on s.id = e.email_send_id and s.workspace_id = e.workspace_id
    where s.contact_id = ${input.contactId} and e.workspace_id = ${input.workspaceId}
    order by e.occurred_at, e.id`;
  tables.pending_form_submissions = await db<ExportRow[]>`
    select * from public.pending_form_submissions
    where workspace_id = ${input.workspaceId} and lower(email) = lower(${contact.email as string})`;
  const tags = await db<{ name: string }[]>`
    select t.name from public.contact_tags ct join public.tags t on t.id = ct.tag_id and t.workspace_id = ct.workspace_id
    where ct.contact_id = ${input.contactId} and ct.workspace_id = ${input.workspaceId} order by lower(t.name)`;
  const values = (contact.custom_fields ?? {}) as Record<string, unknown>;
  const custom = (await listCustomFields(db, input.workspaceId))
    .filter((f) => Object.hasOwn(values, f.key))
    .map((f) => ({ key: f.key, label: f.label, personal: f.is_personal, value: values[f.key] }));
  const topics = await contactTopicStates(db, input);
  return {
    data: {
      exported_at: new Date().toISOString(),
      workspace_id: input.workspaceId,
      contact,
      tags: tags.map((t) => t.name),
      custom_fields: custom,
      topics: topics.map(({ key, name, subscribed, changed_at }) => ({ key, name, subscribed, changed_at })),
      tables,
    },
  };
}
