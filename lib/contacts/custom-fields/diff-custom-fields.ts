import { isEmptyValue } from "./validate-custom-field-values";
import type { CustomField, CustomFieldValue, CustomFieldValues, CustomFieldValuesInput } from "./types";

/** One custom field value a write replaced (spec 4.10 step 3: named in the system note). */
export interface CustomFieldOverwrite {
  key: string;
  label: string;
  from: string;
  to: string;
}

/** A value as a person reads it in a note or a CSV cell: lists joined with "; ", yes/no for booleans. */
export function customFieldText(value: CustomFieldValue | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.join("; ");
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

/**
 * Spec 4.10 on custom fields, as diffContact on the person fields: which incoming values change
 * the stored ones. Empty incoming values never clear a value here (a merge only adds or
 * replaces). 'fill_empty' writes only keys without a value; 'overwrite' writes every differing
 * value and lists replaced non-empty ones in `overwritten`.
 */
export function diffCustomFields(
  fields: CustomField[],
  stored: CustomFieldValues,
  incoming: CustomFieldValuesInput,
  mode: "fill_empty" | "overwrite",
): { updates: CustomFieldValues; overwritten: CustomFieldOverwrite[] } {
  const updates: CustomFieldValues = {};
  const overwritten: CustomFieldOverwrite[] = [];
  for (const field of fields) {
    const next = incoming[field.key];
    if (next === undefined || next === null || isEmptyValue(next)) continue;
    const current = stored[field.key];
    if (JSON.stringify(current ?? null) === JSON.stringify(next)) continue;
    if (isEmptyValue(current)) updates[field.key] = next;
    else if (mode === "overwrite") {
      updates[field.key] = next;
      overwritten.push({
        key: field.key,
        label: field.label,
        from: customFieldText(current),
        to: customFieldText(next),
      });
    }
  }
  return { updates, overwritten };
}

/**
 * An audit row's before/after of changed custom field values: values of fields marked personal
 * are "[changed]" (docs/decisions.md, "Audit log": summaries hold no personal data), the others
 * as stored. Keys of fields no longer defined are left out.
 */
export function customFieldsAuditSummary(
  fields: CustomField[],
  before: CustomFieldValues,
  after: CustomFieldValues,
  changed: string[],
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const out = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  for (const key of changed) {
    const field = byKey.get(key);
    if (!field) continue;
    out.before[key] = field.is_personal && key in before ? "[changed]" : shortValue(before[key]);
    out.after[key] = field.is_personal && key in after ? "[changed]" : shortValue(after[key]);
  }
  return Object.keys(out.after).length > 0 ? out : null;
}

const shortValue = (value: CustomFieldValue | undefined) =>
  typeof value === "string" && value.length > 200 ? `${value.slice(0, 200)}…` : (value ?? null);

/** The replaced non-empty values of a write (spec 4.10 step 3), from writeCustomFieldValues' change. */
export function customFieldOverwrites(
  fields: CustomField[],
  change: { before: CustomFieldValues; after: CustomFieldValues; changed: string[] },
): CustomFieldOverwrite[] {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  return change.changed
    .filter((key) => !isEmptyValue(change.before[key]) && byKey.has(key))
    .map((key) => ({
      key,
      label: byKey.get(key)!.label,
      from: customFieldText(change.before[key]),
      to: customFieldText(change.after[key]),
    }));
}
