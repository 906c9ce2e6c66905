"use client";

import { IMPORT_FIELD_LABELS } from "@/lib/contacts/import/csv-columns";
import {
  MAPPABLE_FIELDS,
  targetLabel,
  type ColumnTarget,
  type ImportMapping,
  type MappableCustomField,
  type MappableField,
} from "@/lib/contacts/import/import-mapping";
import type { ImportPreview, PreviewRow } from "@/lib/contacts/import/preview-import";
import { SkippedRowsTable } from "./skipped-rows-table";

const SKIP = "skip";

const optionsOf = (custom: MappableCustomField[]): { value: string; label: string }[] => [
  ...MAPPABLE_FIELDS.map((name) => ({ value: `field:${name}`, label: IMPORT_FIELD_LABELS[name] })),
  ...custom.map((f) => ({ value: `custom:${f.key}`, label: `Custom field: ${f.label}` })),
  { value: "tags", label: "Tags (split on ; or ,)" },
  { value: "note", label: "Note on the contact" },
  { value: SKIP, label: "Not imported" },
];

const valueOf = (t: ColumnTarget) =>
  t.target === "field" ? `field:${t.name}` : t.target === "custom_field" ? `custom:${t.key}` : t.target;

function targetOf(value: string): ColumnTarget {
  if (value.startsWith("field:")) return { target: "field", name: value.slice(6) as MappableField };
  if (value.startsWith("custom:")) return { target: "custom_field", key: value.slice(7) };
  return { target: value as "tags" | "note" | "skip" };
}

/** The mapping the preview shows, keyed by header as written (the first column of a repeated header). */
export function mappingOfPreview(preview: ImportPreview): ImportMapping {
  const mapping: ImportMapping = {};
  for (const { header, target } of preview.columns) if (!(header in mapping)) mapping[header] = target;
  return mapping;
}

const SOURCE_TEXT: Record<ImportPreview["source"], string> = {
  saved: "These columns were mapped as last time a file with the same columns was imported.",
  names: "Columns are proposed by their names. Choose what each one becomes.",
  given: "Your choices are applied below.",
};

/**
 * The CSV import's mapping step (spec 4.15; docs/decisions.md, "CSV import mappings"): what each
 * column of the file becomes, a choice per column, then the first rows as they will be stored and
 * the rows the import will skip.
 */
export function ImportMappingStep({
  preview,
  busy,
  partial,
  onChange,
  customFields,
}: {
  customFields: MappableCustomField[];
  preview: ImportPreview;
  busy: boolean;
  /** only the start of the file was checked (a large file) */
  partial: boolean;
  onChange: (mapping: ImportMapping) => void;
}) {
  const mapping = mappingOfPreview(preview);
  const options = optionsOf(customFields);
  const custom = customFields.filter((f) =>
    preview.columns.some((c) => c.target.target === "custom_field" && c.target.key === f.key),
  );
  const fields = [
    ...new Set(
      preview.columns.flatMap((c) =>
        c.target.target === "field" && c.target.name !== "email" ? [c.target.name] : [],
      ),
    ),
  ];
  const hasTags = preview.columns.some((c) => c.target.target === "tags");
  const hasNote = preview.columns.some((c) => c.target.target === "note");
  return (
    <div className="stack" aria-busy={busy}>
      <p className="hint">{SOURCE_TEXT[preview.source]}</p>
      <div style={{ overflowX: "auto" }}>
        <table className="data">
          <caption style={{ textAlign: "left", padding: "0.5rem 0" }}>Map the columns of your file</caption>
          <thead>
            <tr>
              <th scope="col">Column in the file</th>
              <th scope="col">Imported as</th>
            </tr>
          </thead>
          <tbody>
            {preview.columns.map(({ header, target }, i) => {
              const id = `map-column-${i}`;
              const first = preview.columns.findIndex((c) => c.header === header) === i;
              return (
                <tr key={`${i}-${header}`}>
                  <th scope="row">
                    <label htmlFor={id}>{header || <em>(no name)</em>}</label>
                  </th>
                  <td>
                    {first ? (
                      <select
                        id={id}
                        value={valueOf(target)}
                        disabled={busy}
                        onChange={(e) => onChange({ ...mapping, [header]: targetOf(e.target.value) })}
                      >
                        {options.map((o) => (
                          <option key={o.value} value={o.value}>
                            {o.label}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <span className="hint">{targetLabel(target)} (repeated column)</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {preview.problem ? (
        <div className="alert error" role="alert">
          {preview.problem}
        </div>
      ) : (
        <>
          <p>
            {partial ? "In the first part of the file checked: " : ""}
            {preview.rowsRead.toLocaleString("en-US")} rows, {preview.valid.toLocaleString("en-US")} to
            import, {preview.skipped.toLocaleString("en-US")} to skip.
          </p>
          <PreviewRows
            rows={preview.rows}
            fields={fields}
            custom={custom}
            hasTags={hasTags}
            hasNote={hasNote}
          />
          {preview.errors.length > 0 && (
            <SkippedRowsTable
              errors={preview.errors}
              caption={
                <>
                  Rows the import will skip
                  {preview.skipped > preview.errors.length && ` (first ${preview.errors.length})`}
                </>
              }
            />
          )}
        </>
      )}
    </div>
  );
}

function PreviewRows({
  rows,
  fields,
  custom,
  hasTags,
  hasNote,
}: {
  rows: PreviewRow[];
  fields: Exclude<MappableField, "email">[];
  custom: MappableCustomField[];
  hasTags: boolean;
  hasNote: boolean;
}) {
  if (rows.length === 0) return <p className="hint">No row of the file can be imported as mapped.</p>;
  return (
    <div style={{ overflowX: "auto" }}>
      <table className="data" aria-label="Preview of the contacts">
        <caption style={{ textAlign: "left", padding: "0.5rem 0" }}>
          The first {rows.length} contacts as they will be stored
        </caption>
        <thead>
          <tr>
            <th scope="col">Row</th>
            <th scope="col">Email</th>
            {fields.map((f) => (
              <th scope="col" key={f}>
                {IMPORT_FIELD_LABELS[f]}
              </th>
            ))}
            {custom.map((f) => (
              <th scope="col" key={f.key}>
                {f.label}
              </th>
            ))}
            {hasTags && <th scope="col">Tags</th>}
            {hasNote && <th scope="col">Note</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.row}>
              <td>{r.row}</td>
              <td>{r.email}</td>
              {fields.map((f) => (
                <td key={f}>{r[f] ?? ""}</td>
              ))}
              {custom.map((f) => (
                <td key={f.key}>{shown(r.custom_fields?.[f.key])}</td>
              ))}
              {hasTags && <td>{r.tags.join(", ")}</td>}
              {hasNote && <td style={{ whiteSpace: "pre-wrap" }}>{r.note ?? ""}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A custom field's value as text: a list joined, yes/no for a boolean. */
function shown(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return String(value);
}
