import type { Db } from "@/lib/db/doors";
import { writeConsent } from "@/lib/consent/consent-door";
import { applyImport } from "./import/apply-import";
import { NO_EMAIL_COLUMN, type ColumnMapping, type ImportField } from "./import/csv-columns";
import { resolveMapping, type ImportMapping } from "./import/import-mapping";
import type { ImportReport, ImportRowError } from "./import/import-report";
import { openStaging, type Staging } from "./import/import-staging";
import { FILE_ERRORS, ImportFileError, readCsv, type CsvRecord } from "./import/read-csv";
import { saveMapping } from "./import/saved-mappings";
import { customValuesOf } from "./import/import-custom-fields";
import { listCustomFields, type CustomField } from "./custom-fields";
import { validateImportRow, type ImportRow } from "./import/validate-import-row";
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
  /**
   * What each header becomes (import-mapping.ts); the headers it does not name are matched by
   * name. Given, it is saved for the workspace's next file with the same headers.
   */
  mapping?: ImportMapping | null;
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
  // 'Mark as Subscribed' writes consent: the whole import (its staging tables included) goes
  // through the consent door (docs/decisions.md, "The database is the boundary")
  if (input.markSubscribed) return writeConsent(db, input.workspaceId, () => runImport(db, input));
  return runImport(db, input);
}

async function runImport(db: Db, input: ImportContactsCsvInput): Promise<Result<ImportReport>> {
  const started = Date.now();
  const staged = await stageImport(db, input);
  if ("error" in staged) return staged;
  if (input.mapping)
    await saveMapping(db, {
      workspaceId: input.workspaceId,
      columns: staged.mapping,
      userId: input.actorUserId,
    });

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
      valid: staged.valid,
      skipped: staged.errors.length,
      ...counts,
      errors: staged.errors,
      columns: staged.mapping.headers.map((header, i) => ({ header, field: staged.mapping.fields[i] })),
      durationMs: Date.now() - started,
    },
  };
}

/**
 * The reading half of the import, shared with its preview (preview-import.ts): the file read
 * through the mapping into the staging table `contact_import_rows` (dropped at commit), the
 * erased addresses taken out (docs/decisions.md, "Privacy requests": reported, not re-created).
 * `valid` counts the rows left; `errors` holds every skipped row, in file order.
 */
export async function stageImport(db: Db, input: StageImportInput): Promise<Staged | Refused> {
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
  const erased = await skipErasedImportRows(db, input.workspaceId);
  return {
    ...staged,
    valid: staged.valid - erased.length,
    errors: [...staged.errors, ...erased].sort((a, b) => a.row - b.row),
  };
}

export type StageImportInput = Omit<
  ImportContactsCsvInput,
  "markSubscribed" | "uploaderIp" | "actorUserId"
> & {
  /** the mapping for the file's headers, chosen once they are read (the preview's saved mapping) */
  mappingFor?: (headers: string[]) => Promise<ImportMapping | null>;
};

export interface Staged {
  mapping: ColumnMapping;
  valid: number;
  errors: ImportRowError[];
  progress: ImportProgress;
}

/** Reads the file into the staging table: the valid rows, and the reasons for the others. */
async function stageFile(
  input: StageImportInput,
  staging: Staging,
  customFields: CustomField[],
): Promise<Staged | Refused> {
  const progress: ImportProgress = { phase: "reading", bytesRead: 0, rowsRead: 0 };
  const errors: ImportRowError[] = [];
  let mapping: ColumnMapping | null = null;
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
          const chosen = input.mappingFor ? await input.mappingFor(record.cells) : input.mapping;
          const resolved = resolveMapping(record.cells, chosen, customFields);
          if ("error" in resolved) return resolved;
          if (!resolved.hasEmail) return refused("invalid", NO_EMAIL_COLUMN);
          mapping = resolved;
          continue;
        }
        const result = checkRecord(record, mapping, customFields);
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
  customFields: CustomField[],
): { row: ImportRow } | { error: ImportRowError } | null {
  if (record.cells.every((cell) => cell.trim() === "")) return null;
  const cells = cellsOf(record.cells, mapping);
  const email = (cells.email ?? "").trim();
  if (record.malformed) return { error: { row: record.rowNumber, email, reason: record.malformed } };
  const result = validateImportRow(record.rowNumber, cells);
  const custom = customFields.length > 0 ? customValuesOf(record.cells, mapping, customFields) : NO_VALUES;
  if ("row" in result && "values" in custom) {
    result.row.custom_fields = custom.values;
    return result;
  }
  const reasons = [
    ...("reasons" in result ? result.reasons : []),
    ...("reasons" in custom ? custom.reasons : []),
  ];
  return { error: { row: record.rowNumber, email, reason: reasons.join(" ") } };
}

const NO_VALUES = { values: null };

/**
 * A record's cells by field, through the mapping: a field column gives its cell; every tags
 * column adds its tags (one list, split on commas and semicolons); every note column adds its
 * text to the row's one note, a blank line between them.
 */
export function cellsOf(record: string[], mapping: ColumnMapping): Partial<Record<ImportField, string>> {
  const cells: Partial<Record<ImportField, string>> = {};
  const tags: string[] = [];
  const notes: string[] = [];
  mapping.targets.forEach((target, i) => {
    const cell = record[i] ?? "";
    if (target.target === "field") cells[target.name] = cell;
    else if (target.target === "tags") tags.push(cell);
    else if (target.target === "note" && cell.trim() !== "") notes.push(cell.trim());
  });
  if (tags.length > 0) cells.tags = tags.join(",");
  if (notes.length > 0) cells.notes = notes.join("\n\n");
  return cells;
}
