import { strFromU8, unzipSync } from "fflate";
import Papa from "papaparse";
import { describe, expect, test } from "vitest";
import type { AuditLogRow } from "@/lib/audit/list-audit-log";
import { auditLogCsv } from "@/lib/audit/audit-log-csv";
import type { LedgerEntry } from "@/lib/consent/consent-ledger";
import { consentLedgerCsv } from "@/lib/consent/consent-ledger";
import { reportToCsv, type ImportReport } from "@/lib/contacts/import/import-report";
import { FORMULA_CELL } from "@/lib/csv/to-csv";
import { registrationsCsv } from "@/lib/events/list-event-registrations";
import { exportArchive } from "@/lib/privacy/export-archive";

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

describe("CSV downloads neutralise formula prefixes", () => {
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
    expect(header).toBe("timestamp,email,action,flow,source,legal_basis,reason,ip,actor,topic");
    expect(row).toContain(`"'=cmd|' /C calc'!A0"`);
    expect(row.startsWith("2026-01-02T03:04:05.000Z,a@example.test,subscribed,")).toBe(true);
  });
});

/** A cell that starts a formula and goes on over a second line: papaparse's default lets it through. */
const MULTI_LINE = '=HYPERLINK("http://evil.example","Click")\nsecond line';

/** Every cell of a CSV, parsed back as a spreadsheet would read it. */
const cells = (csv: string) => (Papa.parse<string[]>(csv.trim()).data as string[][]).flat();

/** No cell a spreadsheet would run as a formula, and the crafted one is there, quoted as text. */
function expectNoFormula(csv: string) {
  const all = cells(csv);
  expect(all).toContain(`'${MULTI_LINE}`);
  for (const cell of all) expect(cell).not.toMatch(/^\s*[=+\-@]/);
}

describe("a formula cell over several lines stays text in every CSV download", () => {
  test("the pattern: anchored at the start of the whole cell, multi-line and after leading spaces", () => {
    for (const cell of [
      MULTI_LINE,
      "=1+1",
      "+1",
      "-1",
      "@SUM(A1)",
      "\t=1",
      "\r=1",
      "\n=1",
      "  =1",
      "\u00a0=1",
      "\uff1d1",
    ])
      expect(FORMULA_CELL.test(cell), JSON.stringify(cell)).toBe(true);
    for (const cell of ["a=1", "Ann", "ann@example.test", "1", "", "a\n=1"])
      expect(FORMULA_CELL.test(cell), JSON.stringify(cell)).toBe(false);
  });

  test("registrations: an RSVP first name", () => {
    expectNoFormula(
      registrationsCsv([
        {
          id: "r",
          contact_id: "c",
          email: "a@example.test",
          first_name: MULTI_LINE,
          last_name: " =2+2",
          status: "registered",
          amount_paid: "0",
          external_attendee_id: null,
          created_at: new Date("2026-01-02T03:04:05Z"),
          checked_in_at: null,
        },
      ]),
    );
  });

  test("the consent ledger: a source", () => {
    const entry = {
      id: "1",
      action: "subscribed",
      flow: "form_submission",
      source: MULTI_LINE,
      legal_basis: null,
      reason: null,
      ip: "192.0.2.1",
      created_at: new Date("2026-01-02T03:04:05Z"),
      actor: null,
    } as unknown as LedgerEntry;
    expectNoFormula(consentLedgerCsv("a@example.test", [entry]));
  });

  test("the privacy export: a note and a form field", () => {
    const zip = exportArchive({
      exported_at: "2026-01-02T03:04:05.000Z",
      workspace_id: "w",
      contact: { id: "c", email: "a@example.test", first_name: MULTI_LINE },
      tags: [],
      custom_fields: [{ key: "motto", label: "Motto", personal: true, value: MULTI_LINE }],
      topics: [{ key: "k", name: MULTI_LINE, subscribed: true, changed_at: null }],
      tables: {
        notes: [{ id: "n", content: MULTI_LINE }],
        form_submissions: [{ id: "s", data: MULTI_LINE }],
      },
    });
    const files = unzipSync(zip);
    for (const name of [
      "contact.csv",
      "custom_fields.csv",
      "topics.csv",
      "notes.csv",
      "form_submissions.csv",
    ])
      expectNoFormula(strFromU8(files[name]));
  });

  test("the import report and the audit log", () => {
    expectNoFormula(
      reportToCsv(report([{ row: 2, email: MULTI_LINE, reason: "Invalid email" }] as ImportReport["errors"])),
    );
    const row: AuditLogRow = {
      id: "1",
      created_at: new Date("2026-01-02T03:04:05Z"),
      actor_id: null,
      actor_email: null,
      action: "tag.created",
      target_type: MULTI_LINE,
      target_id: null,
      before: null,
      after: { name: "x" },
      ip: null,
    };
    expectNoFormula(auditLogCsv([row]));
  });
});
