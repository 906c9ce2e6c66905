import type { Db } from "@/lib/db/doors";
import type { Result } from "@/lib/errors/app-error";
import type { PersonField } from "../contact-row";
import { listCustomFields, type CustomFieldValues } from "../custom-fields";
import { stageImport } from "../import-contacts-csv";
import type { ImportRowError } from "./import-report";
import { TAG_SEPARATOR } from "./import-staging";
import {
  resolveMapping,
  type ColumnTarget,
  type ImportMapping,
  type MappableCustomField,
} from "./import-mapping";
import { NO_EMAIL_COLUMN } from "./csv-columns";
import { findSavedMapping } from "./saved-mappings";

/** Rows shown as they will be stored, and skipped rows listed, at most. */
export const PREVIEW_ROWS = 10;
export const PREVIEW_ERRORS = 100;

/** A staged row as the import will write it. */
export interface PreviewRow extends Record<PersonField, string | null> {
  row: number;
  email: string;
  birth_month: number | null;
  birth_day: number | null;
  tags: string[];
  note: string | null;
  /** custom field values by key, as stored (null: none) */
  custom_fields: CustomFieldValues | null;
}

export interface ImportPreview {
  /** each column of the file and what it becomes */
  columns: { header: string; target: ColumnTarget }[];
  /** where the mapping came from: the caller, the workspace's saved mapping for these headers, or the names */
  source: "given" | "saved" | "names";
  rows: PreviewRow[];
  rowsRead: number;
  valid: number;
  skipped: number;
  /** the first PREVIEW_ERRORS rows the import will skip, with their reasons */
  errors: ImportRowError[];
  /** why the import cannot run as mapped (no column is the email): the mapping must change */
  problem: string | null;
}

/**
 * The CSV import's mapping step (docs/decisions.md, "CSV import mappings"): the file read and staged
 * exactly as the import reads it (same mapping, same row rules, same erased-address check), but not
 * applied: the first rows as they will be stored, and the rows the import will report. Without a
 * mapping, the workspace's saved mapping for the same headers is proposed, else the headers are
 * matched by name. Writes nothing but the staging table, which the transaction's end drops.
 */
export async function previewImport(
  db: Db,
  input: {
    workspaceId: string;
    file: AsyncIterable<Uint8Array | string>;
    mapping?: ImportMapping | null;
    maxBytes?: number;
  },
): Promise<Result<ImportPreview>> {
  let source: ImportPreview["source"] = input.mapping ? "given" : "names";
  let header: { headers: string[]; chosen: ImportMapping | null } | null = null;
  const staged = await stageImport(db, {
    workspaceId: input.workspaceId,
    file: input.file,
    maxBytes: input.maxBytes,
    mappingFor: async (headers) => {
      const saved = input.mapping ? null : await findSavedMapping(db, input.workspaceId, headers);
      if (saved) source = "saved";
      header = { headers, chosen: input.mapping ?? saved };
      return header.chosen;
    },
  });
  if ("error" in staged) {
    const customFields = await listCustomFields(db, input.workspaceId);
    return noEmailColumn(header, source, customFields) ?? staged;
  }
  const rows = await db<(Omit<PreviewRow, "tags"> & { tags: string | null })[]>`
    select row_number as row, email, first_name, last_name, phone, address_line1, address_line2, city,
      state, postal_code, country, birth_month, birth_day, tags, note_text as note,
      custom_fields::jsonb as custom_fields
    from contact_import_rows order by row_number limit ${PREVIEW_ROWS}`;
  const { mapping } = staged;
  return {
    data: {
      columns: mapping.headers.map((header, i) => ({ header, target: mapping.targets[i] })),
      source,
      rows: rows.map((r) => ({ ...r, tags: r.tags ? r.tags.split(TAG_SEPARATOR) : [] })),
      rowsRead: staged.valid + staged.errors.length,
      valid: staged.valid,
      skipped: staged.errors.length,
      errors: staged.errors.slice(0, PREVIEW_ERRORS),
      problem: null,
    },
  };
}

/** A file (or a mapping) without an email column: the columns are shown, for the member to map one. */
function noEmailColumn(
  header: { headers: string[]; chosen: ImportMapping | null } | null,
  source: ImportPreview["source"],
  customFields: MappableCustomField[],
): { data: ImportPreview } | null {
  if (!header) return null;
  const columns = resolveMapping(header.headers, header.chosen, customFields);
  if ("error" in columns || columns.hasEmail) return null;
  return {
    data: {
      columns: columns.headers.map((h, i) => ({ header: h, target: columns.targets[i] })),
      source,
      rows: [],
      rowsRead: 0,
      valid: 0,
      skipped: 0,
      errors: [],
      problem: NO_EMAIL_COLUMN,
    },
  };
}
