import type { Db } from "@/lib/db/doors";
import { applyImport } from "./import/apply-import";
import { mapColumns, NO_EMAIL_COLUMN, type ColumnMapping, type ImportField } from "./import/csv-columns";
import type { ImportReport, ImportRowError } from "./import/import-report";
import { openStaging, type Staging } from "./import/import-staging";
import { FILE_ERRORS, ImportFileError, readCsv, type CsvRecord } from "./import/read-csv";
import { validateImportRow, type ImportRow } from "./import/validate-import-row";
import { customFieldColumns, type CustomFieldColumn } from "./import/custom-field-columns";
import { listCustomFields } from "./custom-fields/list-custom-fields";
import { customFieldValuesFrom } from "./custom-fields/values-from-payload";
import type { CustomField } from "./custom-fields/types";
import { skipErasedImportRows } from "@/lib/privacy/skip-erased-import-rows";
import { refused, type Refused, type Result } from "@/lib/errors/app-error";

/** The browser upload's limit; the command line has none. */
export const BROWSER_IMPORT_MAX_BYTES = 50 * 1024 * 1024;

/**
 * A dashboard upload larger than this (IMPORT_JOB_THRESHOLD_BYTES, default 5 MB;
 * docs/decisions.md, "Large imports as a job") is stored and imported by a job, with its progress on the
 * import page; smaller ones are imported in the request, as before.
 */
export function importJobThresholdBytes(): number {
  const value = Number(process.env.IMPORT_JOB_THRESHOLD_BYTES || NaN);
  return Number.isFinite(value) && value >= 0 ? value : 5 * 1024 * 1024;
}

export type ImportPhase = "reading" | "contacts" | "tags" | "notes";

export interface ImportProgress {
  phase: ImportPhase;
  bytesRead: number;
  rowsRead: number;
}

export interface ImportContactsCsvInput {
  workspaceId: string;
  /** the file's bytes, streamed (a Node stream, a web ReadableStream, any async iterable) */
  file: AsyncIterable<Uint8Array | string>;
  markSubscribed: boolean;
  /** the uploader's IP, recorded as opt_in_ip with 'Mark as Subscribed' */
  uploaderIp: string | null;
  /** the importing member; null for the service identity (command line) */
  actorUserId: string | null;
  maxBytes?: number;
  onProgress?: (progress: ImportProgress) => void;
}

/**
 * Spec 4.15 CSV import. Streams the file (never whole in memory), validates each row,
 * stages the valid ones in bulk, then applies them with set-based statements, all inside
 * the caller's transaction: a critical error throws and the caller's transaction rolls
 * everything back. Invalid rows are skipped and reported with row number and reason; a
 * bad file (binary, not UTF-8, empty, no email column, too large) answers `{ error }`
 * having written nothing but the temporary staging table.
 */
export async function importContactsCsv(
  db: Db,
  input: ImportContactsCsvInput,
): Promise<Result<ImportReport>> {
  const started = Date.now();
  const customFields = await listCustomFields(db, input.workspaceId);
  const staging = await openStaging(db);
  let staged: Staged | Refused;
  try {
    staged = await stageFile(input, staging, customFields);
  } catch (error) {
    staging.abort(error);
    throw error;
  }
  if ("error" in staged) {
    await staging.close();
    return staged;
  }
  await staging.finish();
  // erased addresses are reported, not re-created (docs/decisions.md, "Privacy requests")
  const erased = await skipErasedImportRows(db, input.workspaceId);

  const counts = await applyImport(db, {
    workspaceId: input.workspaceId,
    markSubscribed: input.markSubscribed,
    uploaderIp: input.uploaderIp,
    actorUserId: input.actorUserId,
    onPhase: (phase) => input.onProgress?.({ ...staged.progress, phase }),
  });
  return {
    data: {
      rowsRead: staged.valid + staged.errors.length,
      valid: staged.valid - erased.length,
      skipped: staged.errors.length + erased.length,
      ...counts,
      errors: [...staged.errors, ...erased].sort((a, b) => a.row - b.row),
      columns: staged.mapping.headers.map((header, i) => ({ header, field: staged.mapping.fields[i] })),
      durationMs: Date.now() - started,
    },
  };
}

interface Staged {
  mapping: ColumnMapping;
  valid: number;
  errors: ImportRowError[];
  progress: ImportProgress;
}

/** Reads the file into the staging table: the valid rows, and the reasons for the others. */
async function stageFile(
  input: ImportContactsCsvInput,
  staging: Staging,
  customFields: CustomField[],
): Promise<Staged | Refused> {
  const progress: ImportProgress = { phase: "reading", bytesRead: 0, rowsRead: 0 };
  const errors: ImportRowError[] = [];
  let mapping: ColumnMapping | null = null;
  let custom: CustomFieldColumn[] = [];
  let valid = 0;
  try {
    const records = readCsv(input.file, {
      maxBytes: input.maxBytes,
      onBytes: (bytes) => (progress.bytesRead = bytes),
    });
    for await (const batch of records) {
      const rows: ImportRow[] = [];
      for (const record of batch) {
        if (!mapping) {
          mapping = mapColumns(record.cells);
          if (!mapping.hasEmail) return refused("invalid", NO_EMAIL_COLUMN);
          custom = customFieldColumns(mapping, customFields);
          continue;
        }
        const result = checkRecord(record, mapping, custom);
        if (result === null) continue;
        if ("row" in result) rows.push(result.row);
        else errors.push(result.error);
      }
      if (rows.length > 0) await staging.add(rows);
      valid += rows.length;
      progress.rowsRead = valid + errors.length;
      input.onProgress?.({ ...progress });
    }
  } catch (error) {
    if (error instanceof ImportFileError) return refused("invalid", error.message);
    throw error;
  }
  if (!mapping) return refused("invalid", FILE_ERRORS.empty);
  if (valid + errors.length === 0) return refused("invalid", FILE_ERRORS.noRows);
  return { mapping, valid, errors, progress };
}

/** null for a blank line, else the valid row or the reason it is skipped. */
function checkRecord(
  record: CsvRecord,
  mapping: ColumnMapping,
  custom: CustomFieldColumn[],
): { row: ImportRow } | { error: ImportRowError } | null {
  if (record.cells.every((cell) => cell.trim() === "")) return null;
  const cells: Partial<Record<ImportField, string>> = {};
  mapping.fields.forEach((field, i) => {
    if (field) cells[field] = record.cells[i] ?? "";
  });
  const email = (cells.email ?? "").trim();
  if (record.malformed) return { error: { row: record.rowNumber, email, reason: record.malformed } };
  const result = validateImportRow(record.rowNumber, cells);
  if (!("row" in result))
    return { error: { row: record.rowNumber, email, reason: result.reasons.join(" ") } };
  if (custom.length === 0) return result;
  const texts = Object.fromEntries(custom.map((c) => [c.field.key, record.cells[c.index] ?? ""]));
  const { values, rejected } = customFieldValuesFrom(
    custom.map((c) => c.field),
    texts,
  );
  if (rejected.length > 0) {
    const reason = rejected.map((key) => `${key}: the value does not fit the custom field.`).join(" ");
    return { error: { row: record.rowNumber, email, reason } };
  }
  result.row.custom_fields = Object.keys(values).length > 0 ? values : null;
  return result;
}
