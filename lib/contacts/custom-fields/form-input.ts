import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { listCustomFields } from "./list-custom-fields";
import { parseCustomFieldText } from "./parse-custom-field-text";
import { validateCustomFieldValues } from "./validate-custom-field-values";
import type { CustomField, CustomFieldValue, CustomFieldValues, CustomFieldValuesInput } from "./types";

/** The dashboard contact form's name for a field's control: `cf.<key>` (a multi select: `cf.<key>[]`). */
export const formName = (key: string) => `cf.${key}`;

/**
 * The contact form's custom field controls as values: every defined field, an empty control
 * clearing its value (the form shows them all); text converted by the field's type, an unticked
 * yes/no box is "no" only when the field is required, otherwise no value.
 */
export function customFieldsFromForm(
  fields: CustomField[],
  raw: Record<string, unknown>,
): CustomFieldValuesInput {
  const values: CustomFieldValuesInput = {};
  for (const field of fields) {
    const sent = raw[formName(field.key)];
    const texts = (Array.isArray(sent) ? sent : sent === undefined ? [] : [sent]).filter(
      (v): v is string => typeof v === "string",
    );
    let value: CustomFieldValue | null;
    if (field.field_type === "multi_select") value = texts.map((t) => t.trim()).filter(Boolean);
    else if (field.field_type === "boolean")
      value = texts.length > 0 ? true : field.is_required ? false : null;
    else value = parseCustomFieldText(field, texts[0] ?? "");
    values[field.key] = Array.isArray(value) && value.length === 0 ? null : value;
  }
  return values;
}

/**
 * Reads and checks the contact form's custom fields (required ones included, against the values
 * stored): the definitions and the values, or an `invalid` refusal beside the field's control.
 */
export async function checkedFormCustomFields(
  db: Db,
  workspaceId: string,
  raw: Record<string, unknown>,
  existing?: CustomFieldValues,
): Promise<{ fields: CustomField[]; values: CustomFieldValuesInput }> {
  const fields = await listCustomFields(db, workspaceId);
  const result = validateCustomFieldValues(fields, customFieldsFromForm(fields, raw), {
    enforceRequired: true,
    existing,
  });
  if ("error" in result)
    throw new AppError("invalid", result.error.message, { field: formName(result.error.field ?? "") });
  return { fields, values: result.data };
}
