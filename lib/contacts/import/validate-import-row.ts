import { z } from "zod";
import { PERSON_FIELDS, type PersonField } from "@/lib/contacts/contact-row";
import { textToHtml } from "@/lib/notes/text-to-html";
import { IMPORT_FIELD_LABELS, splitTags, type ImportField } from "./csv-columns";

/** A valid row, ready for the staging table. */
export interface ImportRow extends Record<PersonField, string | null> {
  rowNumber: number;
  email: string;
  birth_month: number | null;
  birth_day: number | null;
  tags: string[];
  note_text: string | null;
  note_html: string | null;
  /** custom field values from the columns named by a field's key (customFieldColumns) */
  custom_fields?: Record<string, unknown> | null;
}

const EMAIL = z.regexes.email;
const MAX_TEXT = 500;
const MAX_NOTE = 10_000;

function wholeNumberIn(value: string, min: number, max: number): number | null {
  if (!/^\d{1,2}$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

/**
 * Spec 4.15 CSV import, per row: email required and valid; birth month and day both or
 * neither, and in range (8.1). Returns the row, or every reason it is invalid.
 */
export function validateImportRow(
  rowNumber: number,
  cells: Partial<Record<ImportField, string>>,
): { row: ImportRow } | { reasons: string[] } {
  const reasons: string[] = [];
  const email = (cells.email ?? "").trim().toLowerCase();
  if (!email) reasons.push("Email is required.");
  else if (email.length > 254 || !EMAIL.test(email)) reasons.push("Email is not a valid address.");

  const monthText = (cells.birth_month ?? "").trim();
  const dayText = (cells.birth_day ?? "").trim();
  const month = monthText ? wholeNumberIn(monthText, 1, 12) : null;
  const day = dayText ? wholeNumberIn(dayText, 1, 31) : null;
  if (!monthText !== !dayText) reasons.push("Birth month and birth day must be given together.");
  if (monthText && month === null) reasons.push("Birth month must be a whole number from 1 to 12.");
  if (dayText && day === null) reasons.push("Birth day must be a whole number from 1 to 31.");

  const row = { rowNumber, email, birth_month: month, birth_day: day } as ImportRow;
  for (const field of PERSON_FIELDS) {
    const value = (cells[field] ?? "").trim();
    if (value.length > MAX_TEXT)
      reasons.push(`${IMPORT_FIELD_LABELS[field]} is longer than ${MAX_TEXT} characters.`);
    row[field] = value || null;
  }
  const note = (cells.notes ?? "").replace(/\r\n?/g, "\n").trim();
  if (note.length > MAX_NOTE) reasons.push(`The note is longer than ${MAX_NOTE} characters.`);
  if (reasons.length > 0) return { reasons };

  row.tags = splitTags(cells.tags ?? "");
  row.note_text = note || null;
  row.note_html = note ? textToHtml(note) : null;
  return { row };
}
