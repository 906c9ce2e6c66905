import { FIELD_LABELS, type ContactRow } from "@/lib/contacts/contact-row";

/**
 * The contact fields a member picks, one by one, when merging B into A (docs/decisions.md,
 * "Merging contacts"). Each field is one or more columns that travel together: the birthday is
 * a month and a day (spec 2.4, "must be paired"). Consent fields are not picked: they follow the
 * consent rule (merge-consent.ts). The source, id, portal token and timestamps stay A's.
 */
export const MERGE_FIELDS = [
  { key: "email", label: "Email", columns: ["email"] },
  { key: "first_name", label: FIELD_LABELS.first_name, columns: ["first_name"] },
  { key: "last_name", label: FIELD_LABELS.last_name, columns: ["last_name"] },
  { key: "phone", label: FIELD_LABELS.phone, columns: ["phone"] },
  { key: "address_line1", label: FIELD_LABELS.address_line1, columns: ["address_line1"] },
  { key: "address_line2", label: FIELD_LABELS.address_line2, columns: ["address_line2"] },
  { key: "city", label: FIELD_LABELS.city, columns: ["city"] },
  { key: "state", label: FIELD_LABELS.state, columns: ["state"] },
  { key: "postal_code", label: FIELD_LABELS.postal_code, columns: ["postal_code"] },
  { key: "country", label: FIELD_LABELS.country, columns: ["country"] },
  { key: "birthday", label: "Birthday", columns: ["birth_month", "birth_day"] },
  { key: "assigned_user_id", label: "Assigned to", columns: ["assigned_user_id"] },
] as const satisfies readonly { key: string; label: string; columns: readonly (keyof ContactRow)[] }[];

export type MergeField = (typeof MERGE_FIELDS)[number];
export type MergeFieldKey = MergeField["key"];
export type MergeColumn = MergeField["columns"][number];
export type MergeSide = "a" | "b";
/** The member's choice per field; a field not named keeps A's value, or B's when A's is empty. */
export type MergeChoices = Partial<Record<MergeFieldKey, MergeSide>>;

export const MERGE_FIELD_KEYS = MERGE_FIELDS.map((f) => f.key) as MergeFieldKey[];

type Side = Pick<ContactRow, MergeColumn>;

const isEmpty = (row: Side, field: MergeField) =>
  field.columns.every((c) => row[c] === null || row[c] === undefined || row[c] === "");

/** The side a field's value comes from: the choice, else A unless A is empty and B is not. */
export function defaultSide(a: Side, b: Side, field: MergeField): MergeSide {
  return isEmpty(a, field) && !isEmpty(b, field) ? "b" : "a";
}

/** Whether the two contacts hold different values for the field (the page shows a choice then). */
export function fieldsDiffer(a: Side, b: Side, field: MergeField): boolean {
  return field.columns.some((c) => (a[c] ?? null) !== (b[c] ?? null));
}

/**
 * The merged values of the picked fields, and which fields came from B (for the system note and
 * the audit entry: their names, never their values).
 */
export function resolveMergedFields(
  a: Side,
  b: Side,
  choices: MergeChoices,
): { values: Side; fromB: MergeFieldKey[] } {
  const values = Object.fromEntries(MERGE_FIELDS.flatMap((f) => f.columns).map((c) => [c, a[c]])) as Record<
    MergeColumn,
    unknown
  >;
  const fromB: MergeFieldKey[] = [];
  for (const field of MERGE_FIELDS) {
    const side = choices[field.key] ?? defaultSide(a, b, field);
    if (side !== "b" || !fieldsDiffer(a, b, field)) continue;
    for (const column of field.columns) values[column] = b[column];
    fromB.push(field.key);
  }
  return { values: values as Side, fromB };
}
