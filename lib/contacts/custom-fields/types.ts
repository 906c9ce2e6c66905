/**
 * Custom fields per workspace (docs/api.md "Custom fields"; docs/decisions.md, "Custom fields").
 * Definitions live in `custom_fields`; a contact's values in `contacts.custom_fields`, one JSON
 * object keyed by the field's key. Callers use the functions of this folder and never read the
 * storage directly, so that the storage can change behind them.
 */
export const CUSTOM_FIELD_TYPES = ["text", "number", "date", "boolean", "select", "multi_select"] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export const CUSTOM_FIELD_TYPE_LABELS: Record<CustomFieldType, string> = {
  text: "Text",
  number: "Number",
  date: "Date",
  boolean: "Yes / no",
  select: "Single select",
  multi_select: "Multi select",
};

/** A field's definition, as stored. */
export interface CustomField {
  id: string;
  workspace_id: string;
  /** snake_case, unique per workspace: the name in the API, forms, imports and exports */
  key: string;
  label: string;
  field_type: CustomFieldType;
  /** the choices of a select or multi select; empty for the other types */
  options: string[];
  is_required: boolean;
  /** personal data: redacted from audit summaries, listed in the privacy export */
  is_personal: boolean;
  position: number;
  created_at: Date;
  updated_at: Date;
}

/** One stored value: text, select and date ('YYYY-MM-DD') are strings; multi select a list. */
export type CustomFieldValue = string | number | boolean | string[];

/** A contact's values by key. */
export type CustomFieldValues = Record<string, CustomFieldValue>;

/** Values as a write takes them: null (or '' or []) clears the key. */
export type CustomFieldValuesInput = Record<string, CustomFieldValue | null>;

/** Keys a custom field may not take: the contact's own columns and the import's aliases for them. */
export const RESERVED_CUSTOM_FIELD_KEYS = [
  "id",
  "email",
  "first_name",
  "last_name",
  "name",
  "full_name",
  "phone",
  "source",
  "address_line1",
  "address_line2",
  "city",
  "state",
  "postal_code",
  "zip",
  "country",
  "birth_month",
  "birth_day",
  "birthday",
  "tags",
  "is_subscribed",
  "subscribed",
  "custom_fields",
  "created_at",
  "updated_at",
];
