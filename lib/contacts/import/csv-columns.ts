/**
 * CSV import columns (spec 4.15 leaves the names open): each field and the header names
 * it answers to. Headers match case-insensitively and ignoring spaces, dashes, dots and
 * underscores, so 'First Name', 'first_name' and 'FIRSTNAME' are the same column. Pure:
 * the browser uses it for the preview, the server for the import.
 */
import { FIELD_LABELS } from "../contact-row";
import type { ColumnTarget } from "./import-mapping";

export const IMPORT_FIELDS = {
  email: ["email", "e-mail", "email address", "e-mail address", "mail", "email_address"],
  first_name: ["first name", "firstname", "first", "given name", "forename", "fname"],
  last_name: ["last name", "lastname", "last", "surname", "family name", "lname"],
  phone: ["phone", "phone number", "telephone", "tel", "mobile", "mobile phone", "cell", "cell phone"],
  address_line1: ["address line 1", "address1", "address", "street", "street address", "address line1"],
  address_line2: ["address line 2", "address2", "address line2", "apartment", "suite", "apt"],
  city: ["city", "town"],
  state: ["state", "province", "region", "state/province", "county"],
  postal_code: ["postal code", "zip", "zip code", "zipcode", "postcode", "post code", "postal"],
  country: ["country", "country code"],
  birth_month: ["birth month", "birthmonth", "birthday month", "dob month"],
  birth_day: ["birth day", "birthday day", "dob day", "day of birth"],
  tags: ["tags", "tag", "labels", "label"],
  notes: ["notes", "note", "comments", "comment"],
} as const satisfies Record<string, readonly string[]>;

export type ImportField = keyof typeof IMPORT_FIELDS;

export const IMPORT_FIELD_LABELS: Record<ImportField, string> = {
  email: "Email",
  ...FIELD_LABELS,
  birth_month: "Birth month",
  birth_day: "Birth day",
  tags: "Tags",
  notes: "Notes",
};

const normalize = (header: string) => header.toLowerCase().replace(/[\s\-_.\/]+/g, "");

/** A header as it is compared: without a byte order mark, case, spaces, dashes, dots, underscores. */
export const normalizeHeader = (header: string) => normalize(header.replace(/^\uFEFF/, ""));

const ALIASES = new Map<string, ImportField>(
  (Object.entries(IMPORT_FIELDS) as [ImportField, readonly string[]][]).flatMap(([field, names]) =>
    [field, ...names].map((name) => [normalize(name), field] as const),
  ),
);

export interface ColumnMapping {
  /** for each CSV column, the field it fills, or null when ignored */
  fields: (ImportField | null)[];
  /** for each CSV column, what it becomes (import-mapping.ts) */
  targets: ColumnTarget[];
  /** the headers as written */
  headers: string[];
  hasEmail: boolean;
}

/** Maps a header row to fields; when two columns name the same field, the first wins. */
export function mapColumns(headers: string[]): ColumnMapping {
  const taken = new Set<ImportField>();
  const fields = headers.map((header) => {
    const field = ALIASES.get(normalizeHeader(header));
    if (!field || taken.has(field)) return null;
    taken.add(field);
    return field;
  });
  const targets = fields.map((field): ColumnTarget =>
    field === null
      ? { target: "skip" }
      : field === "tags"
        ? { target: "tags" }
        : field === "notes"
          ? { target: "note" }
          : { target: "field", name: field },
  );
  return { fields, targets, headers, hasEmail: taken.has("email") };
}

export const NO_EMAIL_COLUMN =
  "The file has no email column. Name one column 'Email' (or 'E-mail', 'Email Address').";

/** Tag names in a cell: separated by commas or semicolons, trimmed, without duplicates. */
export function splitTags(cell: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of cell.split(/[,;]/)) {
    const name = raw
      .replace(/[\u0000-\u001f\u007f]/g, "")
      .trim()
      .slice(0, 100);
    if (name && !seen.has(name.toLowerCase())) {
      seen.add(name.toLowerCase());
      out.push(name);
    }
  }
  return out;
}
