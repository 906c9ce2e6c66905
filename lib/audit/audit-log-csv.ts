import { toCsv } from "@/lib/csv/to-csv";
import { describeChange } from "./audit-summary";
import type { AuditLogRow } from "./list-audit-log";

export const AUDIT_LOG_CSV_FIELDS = [
  "time",
  "actor_email",
  "actor_id",
  "action",
  "target_type",
  "target_id",
  "change",
  "before",
  "after",
  "ip",
] as const;

/**
 * Audit rows as CSV (RFC 4180, CRLF), the header first unless `header` is false (the pages of
 * one streamed export after the first). Times are ISO 8601 UTC, so a spreadsheet in any zone
 * reads the same instant. toCsv prefixes a cell a spreadsheet would run as a formula with a
 * quote, as every other CSV download here does: a tag named "=HYPERLINK(…)" in a summary
 * stays text.
 */
export function auditLogCsv(rows: readonly AuditLogRow[], { header = true } = {}): string {
  const data = rows.map((r) => [
    r.created_at instanceof Date ? r.created_at.toISOString() : r.created_at,
    r.actor_email ?? (r.actor_api_key_name ? `API key: ${r.actor_api_key_name}` : ""),
    r.actor_id ?? r.actor_api_key_id ?? "",
    r.action,
    r.target_type ?? "",
    r.target_id ?? "",
    describeChange(r.before, r.after).join("; "),
    r.before ? JSON.stringify(r.before) : "",
    r.after ? JSON.stringify(r.after) : "",
    r.ip ?? "",
  ]);
  if (data.length === 0) return header ? AUDIT_LOG_CSV_FIELDS.join(",") + "\r\n" : "";
  const csv = toCsv({ fields: [...AUDIT_LOG_CSV_FIELDS], data }, { newline: "\r\n", header });
  return csv + "\r\n";
}
