import type { CustomField } from "../custom-fields/types";
import type { ColumnMapping } from "./csv-columns";

export interface CustomFieldColumn {
  /** the CSV column's position */
  index: number;
  field: CustomField;
}

/**
 * The CSV columns that fill custom fields (docs/decisions.md, "Custom fields"): a header equal
 * to a field's key (ignoring case and surrounding blanks) that no contact column took. The
 * first such column wins for a key.
 */
export function customFieldColumns(mapping: ColumnMapping, fields: CustomField[]): CustomFieldColumn[] {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const taken = new Set<string>();
  const columns: CustomFieldColumn[] = [];
  mapping.headers.forEach((header, index) => {
    if (mapping.fields[index]) return;
    const field = byKey.get(
      header
        .replace(/^\uFEFF/, "")
        .trim()
        .toLowerCase(),
    );
    if (!field || taken.has(field.key)) return;
    taken.add(field.key);
    columns.push({ index, field });
  });
  return columns;
}
