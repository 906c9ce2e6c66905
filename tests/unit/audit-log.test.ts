import { describe, expect, test } from "vitest";
import { auditLogCsv } from "@/lib/audit/audit-log-csv";
import { auditLogFilter, auditLogQueryString, parseAuditLogQuery } from "@/lib/audit/audit-log-query";
import { describeChange } from "@/lib/audit/audit-summary";
import type { AuditLogRow } from "@/lib/audit/list-audit-log";
import { redact } from "@/lib/audit/record-audit";
import { zonedDayRange } from "@/lib/time/format";

const row = (fields: Partial<AuditLogRow> = {}): AuditLogRow => ({
  id: "1",
  created_at: new Date("2026-03-01T12:00:00Z"),
  actor_id: "8d3c5a3e-0000-4000-8000-000000000001",
  actor_email: "olive@example.test",
  action: "tag.renamed",
  target_type: "tag",
  target_id: "8d3c5a3e-0000-4000-8000-000000000002",
  before: { name: "VIP" },
  after: { name: "Gold" },
  ip: "203.0.113.7",
  ...fields,
});

describe("the audit page's filters", () => {
  test("an audited action, or a target's prefix; anything else is dropped", () => {
    expect(parseAuditLogQuery({ action: "contact.updated" }).action).toBe("contact.updated");
    expect(parseAuditLogQuery({ action: "contact." }).action).toBe("contact.");
    expect(parseAuditLogQuery({ action: "api_key." }).action).toBe("api_key.");
    for (const action of ["contact.%", "nope.", "contact", "tag.created'--", "."])
      expect(parseAuditLogQuery({ action }).action, action).toBeUndefined();
  });

  test("a member id, a target id, days and a cursor: malformed values are dropped, empty fields absent", () => {
    const q = parseAuditLogQuery(
      new URLSearchParams({
        actor: "not-a-uuid",
        target: "  abc  ",
        from: "2026-02-30",
        to: "2026-03-01",
        before: "12a",
        action: "",
      }),
    );
    expect(q).toEqual({ target: "abc", to: "2026-03-01" });
    expect(
      parseAuditLogQuery({ before: "42", actor: ["8d3c5a3e-0000-4000-8000-000000000001", "x"] }),
    ).toEqual({
      before: "42",
      actor: "8d3c5a3e-0000-4000-8000-000000000001",
    });
  });

  test("links keep the filters; the cursor only where given", () => {
    const q = parseAuditLogQuery({ action: "tag.", from: "2026-03-01", before: "9" });
    expect(auditLogQueryString(q)).toBe("action=tag.&from=2026-03-01");
    expect(auditLogQueryString(q, "7")).toBe("action=tag.&from=2026-03-01&before=7");
  });

  test("days are the viewer's: 1 March in New York is 05:00 UTC on 1 March to 05:00 UTC on 2 March", () => {
    expect(zonedDayRange("America/New_York", "2026-03-01", "2026-03-01")).toEqual({
      start: new Date("2026-03-01T05:00:00Z"),
      end: new Date("2026-03-02T05:00:00Z"),
    });
    // across the spring change (8 March 2026 in New York): the day after ends at 04:00 UTC
    expect(zonedDayRange("America/New_York", null, "2026-03-08").end).toEqual(
      new Date("2026-03-09T04:00:00Z"),
    );
    // the last day of a month, and an unknown zone read as UTC
    expect(zonedDayRange("Not/AZone", "2026-02-28", "2026-02-28")).toEqual({
      start: new Date("2026-02-28T00:00:00Z"),
      end: new Date("2026-03-01T00:00:00Z"),
    });
    const filter = auditLogFilter(parseAuditLogQuery({ from: "2026-03-01" }), {
      workspaceId: "w",
      timeZone: "Asia/Tokyo",
    });
    expect(filter).toMatchObject({ workspaceId: "w", since: new Date("2026-02-28T15:00:00Z"), until: null });
  });
});

describe("audit summaries", () => {
  test("before → after, a value set, a value removed", () => {
    expect(
      describeChange({ name: "VIP", status: "active" }, { name: "Gold", status: "active", url: null }),
    ).toEqual(["name: VIP → Gold", "status: active", "url: —"]);
    expect(describeChange({ url: "https://a.example" }, {})).toEqual(["url: https://a.example → —"]);
    expect(describeChange(null, { eventTypes: ["contact.created"], enabled: true })).toEqual([
      'eventTypes: ["contact.created"]',
      "enabled: true",
    ]);
    expect(describeChange(null, null)).toEqual([]);
  });

  test("secrets are redacted and contact personal data only says it changed", () => {
    expect(
      redact({
        password: "hunter2",
        api_key: "k",
        email: "ada@example.test",
        first_name: "Ada",
        source: "form",
      }),
    ).toEqual({
      password: "[redacted]",
      api_key: "[redacted]",
      email: "[changed]",
      first_name: "[changed]",
      source: "form",
    });
  });
});

describe("CSV formula injection: the audit log CSV neutralises formula prefixes (papaparse escapeFormulae)", () => {
  test("header, ISO UTC times, the summary and the raw before/after", () => {
    const [header, line, end] = auditLogCsv([row()]).split("\r\n");
    expect(header).toBe("time,actor_email,actor_id,action,target_type,target_id,change,before,after,ip");
    expect(line).toBe(
      "2026-03-01T12:00:00.000Z,olive@example.test,8d3c5a3e-0000-4000-8000-000000000001,tag.renamed,tag," +
        '8d3c5a3e-0000-4000-8000-000000000002,name: VIP → Gold,"{""name"":""VIP""}","{""name"":""Gold""}",203.0.113.7',
    );
    expect(end).toBe("");
    expect(auditLogCsv([row()], { header: false }).startsWith("2026-03-01T12:00:00.000Z,")).toBe(true);
    expect(auditLogCsv([])).toBe(`${header}\r\n`);
    expect(auditLogCsv([], { header: false })).toBe("");
  });

  test("a target id, an email or a summary a spreadsheet would run stays text", () => {
    const csv = auditLogCsv([
      row({
        target_id: '=HYPERLINK("http://evil.example","x")',
        actor_email: "+1@example.test",
        before: null,
        after: null,
      }),
      row({ target_id: "-2+3", before: null, after: { "@SUM(A1)": 1 } }),
    ]);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csv).toContain(`,"'+1@example.test",`);
    expect(csv).toContain(`,"'-2+3","'@SUM(A1): 1",`);
    expect(csv).not.toMatch(/(^|,)[=+\-@]/m);
  });
});
