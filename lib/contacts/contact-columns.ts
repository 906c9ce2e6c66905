import { PERSON_FIELDS } from "./contact-row";
import type { ContactFields } from "./schemas";

/**
 * Every column of a contacts row that domain functions return. Not portal_token: members may not
 * read it (docs/decisions.md, "Portal sessions").
 */
export const CONTACT_COLUMNS = [
  "id",
  "workspace_id",
  "email",
  ...PERSON_FIELDS,
  "source",
  "birth_month",
  "birth_day",
  "is_subscribed",
  "opt_in_timestamp",
  "opt_in_source",
  "host(opt_in_ip) as opt_in_ip",
  "unsubscribed_at",
  "assigned_user_id",
  "locale",
  "created_by",
  "updated_by",
  "created_at",
  "updated_at",
  "custom_fields",
] as const;

/** The select list, qualified with a table alias: `c.id, c.workspace_id, ...`. */
export function contactColumns(alias = "c"): string {
  return CONTACT_COLUMNS.map((col) =>
    col.startsWith("host(") ? `host(${alias}.opt_in_ip) as opt_in_ip` : `${alias}.${col}`,
  ).join(", ");
}

/** The editable fields other than email, each with its contacts column. */
const FIELD_COLUMNS = {
  firstName: "first_name",
  lastName: "last_name",
  phone: "phone",
  addressLine1: "address_line1",
  addressLine2: "address_line2",
  city: "city",
  state: "state",
  postalCode: "postal_code",
  country: "country",
  birthMonth: "birth_month",
  birthDay: "birth_day",
} as const;

type OptionalField = keyof typeof FIELD_COLUMNS;

/** A contact's editable columns: email, and every other field or null. */
export type EditableColumns = { email: string } & {
  -readonly [K in OptionalField as (typeof FIELD_COLUMNS)[K]]: NonNullable<ContactFields[K]> | null;
};

const fieldEntries = Object.entries(FIELD_COLUMNS) as [OptionalField, keyof EditableColumns][];

/** The editable fields as contacts columns; absent fields become null (cleared). */
export function fieldColumns(fields: ContactFields): EditableColumns {
  return Object.fromEntries([
    ["email", fields.email],
    ...fieldEntries.map(([field, column]) => [column, fields[field] ?? null]),
  ]) as EditableColumns;
}

/** The inverse of fieldColumns: stored columns as fields, null as absent. */
export function columnFields(columns: { [K in keyof EditableColumns]?: EditableColumns[K] }): ContactFields {
  return Object.fromEntries([
    ["email", columns.email],
    ...fieldEntries.map(([field, column]) => [field, columns[column] ?? undefined]),
  ]) as ContactFields;
}
