import { toCsv } from "@/lib/csv/to-csv";
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
 * come from the uploaded file: toCsv neutralises formula cells, so a spreadsheet opening the
 * report runs no formula.
 */
export function reportToCsv(report: ImportReport): string {
  const summary = toCsv({ fields: ["Summary", "Count"], data: reportSummary(report) });
  const errors = toCsv({
    fields: ["Row", "Email", "Reason"],
    data: report.errors.map((e) => [e.row, e.email, e.reason]),
  });
  return `${summary}\r\n\r\n${errors}\r\n`;
}
