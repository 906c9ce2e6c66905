import { parseCustomFieldText } from "./parse-custom-field-text";
import { customFieldValueSchema, isEmptyValue } from "./validate-custom-field-values";
import type { CustomField, CustomFieldValue, CustomFieldValues } from "./types";

/**
 * The custom field values in a submitted body or a CSV row (docs/decisions.md, "Custom
 * fields"): each key equal to a field's key, its value converted from text when it is text
 * (parseCustomFieldText) or taken as sent (a JSON body's number, boolean or list). A value that
 * still does not fit its field is left out and named in `rejected`: a lead is never lost to a
 * malformed extra field; the caller keeps the raw value where it keeps the rest of the payload.
 */
export function customFieldValuesFrom(
  fields: CustomField[],
  payload: Record<string, unknown>,
): { values: CustomFieldValues; rejected: string[] } {
  const values: CustomFieldValues = {};
  const rejected: string[] = [];
  for (const field of fields) {
    if (!Object.hasOwn(payload, field.key)) continue;
    const raw = payload[field.key];
    const value: unknown =
      typeof raw === "string"
        ? parseCustomFieldText(field, raw)
        : Array.isArray(raw) && field.field_type !== "multi_select"
          ? raw.length === 1 && typeof raw[0] === "string"
            ? parseCustomFieldText(field, raw[0])
            : raw
          : raw;
    if (isEmptyValue(value)) continue;
    const parsed = customFieldValueSchema(field).safeParse(value);
    if (parsed.success) values[field.key] = parsed.data as CustomFieldValue;
    else rejected.push(field.key);
  }
  return { values, rejected };
}
