/** A contacts row as postgres.js returns it (spec 2.4 plus created_by/updated_by). */
export interface ContactRow {
  id: string;
  workspace_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  source: ContactSource;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  birth_month: number | null;
  birth_day: number | null;
  is_subscribed: boolean;
  opt_in_timestamp: Date | null;
  opt_in_source: string | null;
  opt_in_ip: string | null;
  unsubscribed_at: Date | null;
  assigned_user_id: string | null;
  /** the contact's language, a BCP 47 tag (DESIGN.md section 9); null: unknown */
  locale?: string | null;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
  /** values of the workspace's custom fields by key (lib/contacts/custom-fields) */
  custom_fields?: Record<string, string | number | boolean | string[]>;
}

/** Spec 2.4.1 (plus 'event', set by the RSVP endpoint, and 'api', docs/api.md). */
export const CONTACT_SOURCES = ["manual", "form", "import", "ticketing", "payproc", "event", "api"] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];

/** The person details that writers merge into a contact. */
export const PERSON_FIELDS = [
  "first_name",
  "last_name",
  "phone",
  "address_line1",
  "address_line2",
  "city",
  "state",
  "postal_code",
  "country",
] as const;
export type PersonField = (typeof PERSON_FIELDS)[number];
export type PersonFields = Partial<Record<PersonField, string | null | undefined>>;

export const FIELD_LABELS: Record<PersonField, string> = {
  first_name: "First name",
  last_name: "Last name",
  phone: "Phone",
  address_line1: "Address line 1",
  address_line2: "Address line 2",
  city: "City",
  state: "State",
  postal_code: "Postal code",
  country: "Country",
};
