import { strToU8, zipSync } from "fflate";
import { toCsv } from "@/lib/csv/to-csv";
import type { ContactExport, ExportRow } from "./export-contact-data";

const cell = (v: unknown): string =>
  v === null || v === undefined
    ? ""
    : v instanceof Date
      ? v.toISOString()
      : typeof v === "object"
        ? JSON.stringify(v)
        : String(v);

function csv(rows: ExportRow[]): string {
  // formula cells neutralised by toCsv (a note "=cmd|…", on one line or several, stays text)
  return toCsv(rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cell(v)]))));
}

/**
 * The machine-readable archive of a privacy export (GDPR art. 15/20): a ZIP (fflate) with
 * contact.json (everything, nested) and one CSV per table that has rows, plus contact.csv.
 */
export function exportArchive(data: ContactExport): Uint8Array {
  const files: Record<string, Uint8Array> = {
    "contact.json": strToU8(JSON.stringify(data, null, 2)),
    "contact.csv": strToU8(csv([{ ...data.contact, tags: data.tags.join("; ") }])),
  };
  if (data.custom_fields.length > 0) files["custom_fields.csv"] = strToU8(csv(data.custom_fields));
  for (const [table, rows] of Object.entries(data.tables))
    if (rows.length > 0) files[`${table}.csv`] = strToU8(csv(rows));
  return zipSync(files, { level: 6, mtime: new Date(data.exported_at) });
}
