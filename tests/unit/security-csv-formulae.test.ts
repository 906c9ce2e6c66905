import { describe, expect, test } from "vitest";
import type { LedgerEntry } from "@/lib/consent/consent-ledger";
import { consentLedgerCsv } from "@/lib/consent/consent-ledger";
import { reportToCsv, type ImportReport } from "@/lib/contacts/import/import-report";

const report = (errors: ImportReport["errors"]): ImportReport => ({
  rowsRead: 1,
  valid: 0,
  skipped: 1,
  created: 0,
  updated: 0,
  unchanged: 0,
  subscribed: 0,
  consentKept: 0,
  consentSkippedComplaint: 0,
  tagsCreated: 0,
  tagsAttached: 0,
  notesAdded: 0,
  errors,
  columns: [],
  durationMs: 1,
});

describe("CSV formula injection: CSV downloads neutralise formula prefixes (papaparse escapeFormulae)", () => {
  test("the import report: an uploaded cell starting with = + - @ stays text", () => {
    const csv = reportToCsv(
      report([
        { row: 2, email: '=HYPERLINK("http://evil.example","x")', reason: "Invalid email" },
        { row: 3, email: "+1-555", reason: "@SUM(A1)" },
        { row: 4, email: "-2+3", reason: "Invalid email" },
      ] as ImportReport["errors"]),
    );
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csv).toContain(`"'+1-555","'@SUM(A1)"`);
    expect(csv).toContain(`"'-2+3"`);
    expect(csv).not.toMatch(/(^|,)[=+\-@]/m);
  });

  test("the consent ledger export", () => {
    const entry = {
      id: "1",
      action: "subscribed",
      flow: "form_submission",
      source: "=cmd|' /C calc'!A0",
      legal_basis: null,
      reason: null,
      ip: "192.0.2.1",
      created_at: new Date("2026-01-02T03:04:05Z"),
      actor: null,
    } as unknown as LedgerEntry;
    const csv = consentLedgerCsv("a@example.test", [entry]);
    const [header, row] = csv.trimEnd().split("\r\n");
    expect(header).toBe("timestamp,email,action,flow,source,legal_basis,reason,ip,actor");
    expect(row).toContain(`"'=cmd|' /C calc'!A0"`);
    expect(row.startsWith("2026-01-02T03:04:05.000Z,a@example.test,subscribed,")).toBe(true);
  });
});
