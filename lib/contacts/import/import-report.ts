import Papa from "papaparse";
import type { ApplyImportCounts } from "./apply-import";
import type { ImportField } from "./csv-columns";

export interface ImportRowError {
  row: number;
  email: string;
  reason: string;
}

/** What an import did, shown at the end and downloadable as CSV. */
export interface ImportReport extends ApplyImportCounts {
  rowsRead: number;
  valid: number;
  skipped: number;
  errors: ImportRowError[];
  columns: { header: string; field: ImportField | null }[];
  durationMs: number;
}

const SUMMARY: [keyof ImportReport, string][] = [
  ["rowsRead", "Rows read"],
  ["valid", "Valid rows"],
  ["skipped", "Rows skipped"],
  ["created", "Contacts created"],
  ["updated", "Contacts updated"],
  ["unchanged", "Contacts already up to date"],
  ["subscribed", "Consent recorded"],
  ["consentKept", "Already subscribed (consent kept)"],
  ["consentSkippedComplaint", "Not subscribed: spam complaint on file"],
  ["tagsCreated", "Tags created"],
  ["tagsAttached", "Tags attached"],
  ["notesAdded", "Notes added"],
];

export function reportSummary(report: ImportReport): [string, number][] {
  return SUMMARY.map(([key, label]) => [label, report[key] as number]);
}

/**
 * The report as CSV: the summary, a blank line, then each skipped row with its reason. Cells
 * come from the uploaded file: papaparse's escapeFormulae neutralises = + - @ tab and CR
 * prefixes, so a spreadsheet runs no formula (docs/decisions.md, "Security headers and smaller defences").
 */
export function reportToCsv(report: ImportReport): string {
  const summary = Papa.unparse(
    { fields: ["Summary", "Count"], data: reportSummary(report) },
    { escapeFormulae: true },
  );
  const errors = Papa.unparse(
    { fields: ["Row", "Email", "Reason"], data: report.errors.map((e) => [e.row, e.email, e.reason]) },
    { escapeFormulae: true },
  );
  return `${summary}\r\n\r\n${errors}\r\n`;
}
