import { toCsv } from "@/lib/csv/to-csv";
import { IMPORT_FIELD_LABELS, IMPORT_FIELDS, type ImportField } from "./csv-columns";

const EXAMPLES: Record<ImportField, [string, string]> = {
  email: ["ada@example.com", "grace@example.org"],
  first_name: ["Ada", "Grace"],
  last_name: ["Lovelace", "Hopper"],
  phone: ["+1 555 0100", ""],
  address_line1: ["12 St James's Square", ""],
  address_line2: ["", ""],
  city: ["London", "Arlington"],
  state: ["", "VA"],
  postal_code: ["SW1Y 4JH", "22201"],
  country: ["GB", "US"],
  birth_month: ["12", ""],
  birth_day: ["10", ""],
  tags: ["Donor; Volunteer", "Newsletter"],
  notes: ["Met at the spring fair.", ""],
};

/**
 * The sample file of the import page: one column per field the import reads by name, headed with
 * the field's label (csv-columns.ts matches it), and two example rows; tags split on ; or ,.
 */
export function sampleImportCsv(): string {
  const fields = Object.keys(IMPORT_FIELDS) as ImportField[];
  return `${toCsv({
    fields: fields.map((f) => IMPORT_FIELD_LABELS[f]),
    data: [0, 1].map((i) => fields.map((f) => EXAMPLES[f][i])),
  })}\r\n`;
}
