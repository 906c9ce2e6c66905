import { z } from "zod";
import { AppError, refused, type Result } from "@/lib/errors/app-error";
import { isCalendarDate } from "@/lib/time/calendar";
import type { CustomField, CustomFieldValue, CustomFieldValues, CustomFieldValuesInput } from "./types";

/** "No value": null, a blank text or an empty list. */
export const isEmptyValue = (value: unknown): boolean =>
  value === null ||
  value === undefined ||
  (typeof value === "string" && value.trim() === "") ||
  (Array.isArray(value) && value.length === 0);

/**
 * The zod schema of one field's value, the same rules the database trigger applies
 * (supabase/migrations/20261127000100_custom_fields.sql): text up to 10,000 characters, a finite
 * number, a boolean, a calendar date 'YYYY-MM-DD', one of the options, a list of distinct options.
 */
export function customFieldValueSchema(field: CustomField): z.ZodType<CustomFieldValue> {
  const option = z.string().refine((v) => field.options.includes(v), {
    error: `${field.label}: choose one of ${field.options.join(", ")}.`,
  });
  switch (field.field_type) {
    case "text":
      return z
        .string({ error: `${field.label} must be text.` })
        .max(10_000, `${field.label} can be at most 10,000 characters.`);
    case "number":
      return z.number({ error: `${field.label} must be a number.` }).refine(Number.isFinite, {
        error: `${field.label} must be a number.`,
      });
    case "boolean":
      return z.boolean({ error: `${field.label} must be true or false.` });
    case "date":
      return z
        .string({ error: `${field.label} must be a date (YYYY-MM-DD).` })
        .refine(isCalendarDate, { error: `${field.label} must be a date (YYYY-MM-DD).` });
    case "select":
      return z.string({ error: `${field.label}: choose one of ${field.options.join(", ")}.` }).pipe(option);
    case "multi_select":
      return z
        .array(option, { error: `${field.label} must be a list of options.` })
        .refine((list) => new Set(list).size === list.length, {
          error: `${field.label}: an option is listed twice.`,
        });
  }
}

export interface ValidateOptions {
  /** the contact's values before this write: required fields are checked on the result */
  existing?: CustomFieldValues;
  /** refuse a write that leaves a required field without a value (the contact form, API create) */
  enforceRequired?: boolean;
}

/**
 * Checks a `{key: value}` map against the workspace's definitions: every key must be defined,
 * every value of its field's type (null, '' or [] clear the value). The refusal is `invalid`
 * with `field` = the first bad key and `details.fields` = every bad key and its message.
 */
export function validateCustomFieldValues(
  fields: CustomField[],
  input: unknown,
  options: ValidateOptions = {},
): Result<CustomFieldValuesInput> {
  if (input === undefined || input === null) input = {};
  if (typeof input !== "object" || Array.isArray(input)) {
    return refused("invalid", "custom_fields must be an object of field keys and values.", {
      field: "custom_fields",
    });
  }
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const problems: Record<string, string> = {};
  const values: CustomFieldValuesInput = {};
  for (const [key, raw] of Object.entries(input as Record<string, unknown>)) {
    const field = byKey.get(key);
    if (!field) {
      problems[key] = `There is no custom field "${key}".`;
      continue;
    }
    if (isEmptyValue(raw)) {
      values[key] = null;
      continue;
    }
    const parsed = customFieldValueSchema(field).safeParse(raw);
    if (parsed.success) values[key] = parsed.data;
    else problems[key] = parsed.error.issues[0]?.message ?? `${field.label} is not valid.`;
  }
  if (options.enforceRequired) {
    for (const field of fields) {
      if (!field.is_required || problems[field.key]) continue;
      const after = field.key in values ? values[field.key] : options.existing?.[field.key];
      if (isEmptyValue(after)) problems[field.key] = `${field.label} is required.`;
    }
  }
  const bad = Object.entries(problems);
  if (bad.length === 0) return { data: values };
  return { error: invalidCustomFields(problems) };
}

/** The refusal for one or more bad keys: `field` the first, `details.fields` all of them. */
export function invalidCustomFields(problems: Record<string, string>): AppError {
  const [[key, message]] = Object.entries(problems);
  return new AppError("invalid", message, { field: key, details: { fields: problems } });
}
