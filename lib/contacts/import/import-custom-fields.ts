import {
  parseCustomFieldText,
  validateCustomFieldValues,
  type CustomField,
  type CustomFieldValues,
} from "@/lib/contacts/custom-fields";
import type { ColumnMapping } from "./csv-columns";

/**
 * A row's custom field cells (docs/decisions.md, "Custom fields"): each mapped cell turned into its
 * field's type and checked by the custom fields' own validator, as a form or the API is. Blank
 * cells give no value (an import only writes what is filled in). Returns the values (null when
 * none), or every reason the row is invalid.
 */
export function customValuesOf(
  record: string[],
  mapping: ColumnMapping,
  fields: CustomField[],
): { values: CustomFieldValues | null } | { reasons: string[] } {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const texts: Record<string, ReturnType<typeof parseCustomFieldText>> = {};
  let any = false;
  mapping.targets.forEach((target, i) => {
    if (target.target !== "custom_field") return;
    const field = byKey.get(target.key);
    const value = field ? parseCustomFieldText(field, record[i] ?? "") : null;
    if (value === null) return;
    texts[target.key] = value;
    any = true;
  });
  if (!any) return { values: null };
  const checked = validateCustomFieldValues(fields, texts);
  if ("error" in checked) {
    const problems = (checked.error.details?.fields ?? {}) as Record<string, string>;
    // the field's message, and its key (the name the mapping and the API use)
    const reasons = Object.entries(problems).map(
      ([key, message]) => `${message.replace(/\.$/, "")} (${key}).`,
    );
    return { reasons: reasons.length > 0 ? reasons : [checked.error.message] };
  }
  return { values: checked.data as CustomFieldValues };
}
