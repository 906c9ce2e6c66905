import type { ContactRow } from "@/lib/contacts/contact-row";
import { isEmptyValue, type CustomField, type CustomFieldValue } from "@/lib/contacts/custom-fields";
import { customFieldInputName } from "./merge-custom-fields";
import { defaultSide, fieldsDiffer, MERGE_FIELDS, type MergeField, type MergeSide } from "./merge-fields";

export interface MergeFieldChoice {
  key: string;
  label: string;
  a: string;
  b: string;
  side: MergeSide;
}

/**
 * The merge page's rows: each field the two contacts disagree on, as text, with the side checked
 * first; and the labels of the fields they agree on. `person` names an assigned member.
 */
export function mergeView(
  a: ContactRow,
  b: ContactRow,
  person: (userId: string) => string,
  customFields: CustomField[] = [],
): { choices: MergeFieldChoice[]; same: string[] } {
  const text = (c: ContactRow, field: MergeField): string => {
    if (field.key === "birthday") return c.birth_month ? `${c.birth_month}/${c.birth_day}` : "";
    if (field.key === "assigned_user_id") return c.assigned_user_id ? person(c.assigned_user_id) : "";
    return String(c[field.columns[0]] ?? "");
  };
  const differing = MERGE_FIELDS.filter((f) => fieldsDiffer(a, b, f));
  const [ca, cb] = [a.custom_fields ?? {}, b.custom_fields ?? {}];
  const customDiffering = customFields.filter(
    (f) => JSON.stringify(ca[f.key] ?? null) !== JSON.stringify(cb[f.key] ?? null),
  );
  return {
    choices: [
      ...differing.map((f) => ({
        key: f.key,
        label: f.label,
        a: text(a, f),
        b: text(b, f),
        side: defaultSide(a, b, f),
      })),
      ...customDiffering.map((f) => ({
        key: customFieldInputName(f.key),
        label: f.label,
        a: customText(ca[f.key]),
        b: customText(cb[f.key]),
        side: (isEmptyValue(ca[f.key]) ? "b" : "a") as MergeSide,
      })),
    ],
    same: [
      ...MERGE_FIELDS.filter((f) => !differing.includes(f)),
      ...customFields.filter((f) => !customDiffering.includes(f)),
    ].map((f) => f.label),
  };
}

function customText(value: CustomFieldValue | undefined): string {
  if (value === undefined || isEmptyValue(value)) return "";
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return String(value);
}
