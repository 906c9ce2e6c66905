import { PERSON_FIELDS } from "./contact-row";
import type { ContactFields } from "./schemas";

/** Every column of a contacts row that domain functions return. */
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
  "portal_token",
  "created_by",
  "updated_by",
  "created_at",
  "updated_at",
] as const;

/** The select list, qualified with a table alias: `c.id, c.workspace_id, ...`. */
export function contactColumns(alias = "c"): string {
  return CONTACT_COLUMNS.map((col) =>
    col.startsWith("host(") ? `host(${alias}.opt_in_ip) as opt_in_ip` : `${alias}.${col}`,
  ).join(", ");
}

/** The editable fields as contacts columns; absent fields become null (cleared). */
export function fieldColumns(fields: ContactFields) {
  return {
    email: fields.email,
    first_name: fields.firstName ?? null,
    last_name: fields.lastName ?? null,
    phone: fields.phone ?? null,
    address_line1: fields.addressLine1 ?? null,
    address_line2: fields.addressLine2 ?? null,
    city: fields.city ?? null,
    state: fields.state ?? null,
    postal_code: fields.postalCode ?? null,
    country: fields.country ?? null,
    birth_month: fields.birthMonth ?? null,
    birth_day: fields.birthDay ?? null,
  };
}
