import { isEmptyValue, type CustomFieldValues } from "@/lib/contacts/custom-fields";
import type { MergeSide } from "./merge-fields";

/** The member's choice per custom field key (docs/decisions.md, "Custom fields"). */
export type CustomFieldChoices = Record<string, MergeSide>;

/** The form's name of a custom field's radio group: `cf_<key>` (keys are snake_case). */
export const customFieldInputName = (key: string) => `cf_${key}`;

/**
 * The merged custom field values: per key either contact holds, the chosen side's value; without
 * a choice A's, or B's when A has none. Keys both hold equally need no choice.
 */
export function mergeCustomFields(
  a: CustomFieldValues,
  b: CustomFieldValues,
  choices: CustomFieldChoices,
): { values: CustomFieldValues; fromB: string[] } {
  const values: CustomFieldValues = {};
  const fromB: string[] = [];
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const side = choices[key] ?? (isEmptyValue(a[key]) ? "b" : "a");
    const value = side === "b" ? b[key] : a[key];
    if (!isEmptyValue(value)) values[key] = value;
    if (side === "b" && JSON.stringify(a[key] ?? null) !== JSON.stringify(b[key] ?? null)) fromB.push(key);
  }
  return { values, fromB };
}

/** The choices out of the form's `cf_<key>` fields. */
export function customFieldChoicesOf(form: Record<string, unknown>): CustomFieldChoices {
  return Object.fromEntries(
    Object.entries(form)
      .filter(([name, value]) => /^cf_[a-z][a-z0-9_]*$/.test(name) && (value === "a" || value === "b"))
      .map(([name, value]) => [name.slice(3), value as MergeSide]),
  );
}
