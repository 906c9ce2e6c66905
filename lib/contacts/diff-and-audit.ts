import type { Db } from "@/lib/db/doors";
import { escapeHtml } from "@/lib/html/escape";
import { addNote } from "@/lib/notes/add-note";
import {
  FIELD_LABELS,
  PERSON_FIELDS,
  type ContactRow,
  type PersonField,
  type PersonFields,
} from "./contact-row";
import { normalizePhoneForCompare } from "./phone";

export interface FieldChange {
  field: PersonField;
  from: string;
  to: string;
}

/**
 * Spec 4.10 steps 1-2 (and 4.2.2 B.1 in 'fill_empty' mode): which incoming person fields
 * change the stored contact. Empty incoming values never clear a field. Phones are
 * compared after US normalisation, so a reformatted number is no change.
 * - 'fill_empty': only empty stored fields are written.
 * - 'overwrite': every differing field is written; overwritten non-empty values are returned
 *   in `overwritten` for the audit note.
 */
export function diffContact(
  stored: Pick<ContactRow, PersonField>,
  incoming: PersonFields,
  mode: "fill_empty" | "overwrite",
): { updates: Partial<Record<PersonField, string>>; overwritten: FieldChange[] } {
  const updates: Partial<Record<PersonField, string>> = {};
  const overwritten: FieldChange[] = [];
  for (const field of PERSON_FIELDS) {
    const next = incoming[field]?.trim();
    if (!next) continue;
    const current = stored[field]?.trim() ?? "";
    const same =
      field === "phone"
        ? normalizePhoneForCompare(current) === normalizePhoneForCompare(next)
        : current === next;
    if (same) continue;
    if (!current) updates[field] = next;
    else if (mode === "overwrite") {
      updates[field] = next;
      overwritten.push({ field, from: current, to: next });
    }
  }
  return { updates, overwritten };
}

/** A replaced custom field value (lib/contacts/custom-fields): named by its label. */
export interface LabelledChange {
  label: string;
  from: string;
  to: string;
}

const labelOf = (c: FieldChange | LabelledChange) => ("label" in c ? c.label : FIELD_LABELS[c.field]);

/**
 * Spec 4.10 step 3: a system note (created_by null) naming each overwritten field with its
 * old and new value, in HTML (escaped) and plain text.
 */
export async function writeAuditNote(
  db: Db,
  contact: Pick<ContactRow, "id" | "workspace_id">,
  changes: (FieldChange | LabelledChange)[],
  via: string,
): Promise<void> {
  if (changes.length === 0) return;
  const heading = `Contact details updated by ${via}`;
  const text = [`${heading}:`, ...changes.map((c) => `${labelOf(c)}: "${c.from}" → "${c.to}"`)].join("\n");
  const html =
    `<p>${escapeHtml(heading)}:</p><ul>` +
    changes
      .map(
        (c) =>
          `<li><strong>${escapeHtml(labelOf(c))}</strong>: ` +
          `<del>${escapeHtml(c.from)}</del> → <ins>${escapeHtml(c.to)}</ins></li>`,
      )
      .join("") +
    `</ul>`;
  await addNote(db, {
    workspaceId: contact.workspace_id,
    contactId: contact.id,
    text,
    html,
    createdBy: null,
  });
}
