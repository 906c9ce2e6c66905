import type { Db } from "@/lib/db/doors";
import { fieldColumns, type EditableColumns } from "./contact-columns";
import type { ContactFields } from "./schemas";

/** The editable columns of a contact of the workspace as stored now, or null when there is none. */
export async function readEditableFields(
  db: Db,
  input: { workspaceId: string; contactId: string },
): Promise<EditableColumns | null> {
  const [row] = await db<EditableColumns[]>`
    select email, first_name, last_name, phone, address_line1, address_line2, city, state,
           postal_code, country, birth_month, birth_day
    from public.contacts where id = ${input.contactId} and workspace_id = ${input.workspaceId}`;
  return row ?? null;
}

/**
 * The names, never the values, of the editable columns an edit changes: the audit summary of a
 * contact edit (docs/decisions.md, "Audit log"), which holds no personal data an erasure would rewrite.
 */
export function editedFields(before: EditableColumns, fields: ContactFields): string[] {
  const after = fieldColumns(fields);
  return (Object.keys(after) as (keyof EditableColumns)[]).filter(
    (key) => String(before[key] ?? "") !== String(after[key] ?? ""),
  );
}
