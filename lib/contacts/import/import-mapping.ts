/**
 * The CSV import's column mapping (spec 4.15 leaves the columns open; docs/decisions.md, "CSV import
 * mappings"): each header of the file becomes a contact field, a custom field (docs/decisions.md, "Custom
 * fields"), the row's tags, its note, or nothing.
 * Applied before the rows are validated, so every rule of the import holds whatever the headers
 * are called. A header the mapping does not name is matched by name, as before; a mapping that names
 * a header the file lacks is refused. Pure: the browser builds the mapping the server applies.
 */
import { z } from "zod";
import { PERSON_FIELDS } from "../contact-row";
import { refused, type Refused } from "@/lib/errors/app-error";
import {
  IMPORT_FIELD_LABELS,
  mapColumns,
  normalizeHeader,
  type ColumnMapping,
  type ImportField,
} from "./csv-columns";

/** The contact columns a header can fill (tags and notes are targets of their own). */
export const MAPPABLE_FIELDS = ["email", ...PERSON_FIELDS, "birth_month", "birth_day"] as const;
export type MappableField = (typeof MAPPABLE_FIELDS)[number];

export const columnTargetSchema = z.discriminatedUnion("target", [
  z.strictObject({ target: z.literal("field"), name: z.enum(MAPPABLE_FIELDS) }),
  z.strictObject({ target: z.literal("custom_field"), key: z.string().regex(/^[a-z][a-z0-9_]{0,62}$/) }),
  z.strictObject({ target: z.literal("tags") }),
  z.strictObject({ target: z.literal("note") }),
  z.strictObject({ target: z.literal("skip") }),
]);
export type ColumnTarget = z.infer<typeof columnTargetSchema>;

/** header (as written, or normalised) -> target */
export const importMappingSchema = z
  .record(z.string().max(500), columnTargetSchema)
  .refine((m) => Object.keys(m).length <= 500, "A mapping names at most 500 columns.");
export type ImportMapping = z.infer<typeof importMappingSchema>;

export const SKIP: ColumnTarget = { target: "skip" };

/** A mapping sent by a caller (the upload's query, the command line's file): parsed, or refused. */
export function parseImportMapping(value: unknown): { data: ImportMapping } | Refused {
  const parsed = importMappingSchema.safeParse(value);
  if (parsed.success) return { data: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue.path.length > 0 ? ` (column '${String(issue.path[0])}')` : "";
  return refused("invalid", `The column mapping is not valid${where}: ${issue.message}`, {
    field: "mapping",
  });
}

/** The same, from JSON text (a query parameter, a file). */
export function parseImportMappingJson(text: string): { data: ImportMapping } | Refused {
  try {
    return parseImportMapping(JSON.parse(text));
  } catch {
    return refused("invalid", "The column mapping is not valid JSON.", { field: "mapping" });
  }
}

/** The `mapping` query parameter of the upload routes: absent is null (headers matched by name). */
export function mappingFromQuery(url: URL): { data: ImportMapping | null } | Refused {
  const text = url.searchParams.get("mapping");
  return text === null || text === "" ? { data: null } : parseImportMappingJson(text);
}

/** The field a target fills, for the report's column list (tags and notes as before). */
export function targetField(target: ColumnTarget): ImportField | null {
  if (target.target === "field") return target.name;
  if (target.target === "tags") return "tags";
  if (target.target === "note") return "notes";
  return null;
}

export function targetLabel(target: ColumnTarget): string {
  if (target.target === "custom_field") return `Custom field ${target.key}`;
  const field = targetField(target);
  return field ? IMPORT_FIELD_LABELS[field] : "Not imported";
}

/** A custom field as the mapping knows it (its key, and its label for matching by name). */
export interface MappableCustomField {
  key: string;
  label: string;
}

/**
 * The file's columns read through `mapping`: a named header takes its target (several columns
 * may feed the tags or the note; a field filled by two columns takes the first, as by name),
 * any other header is matched by name: our fields' names first, then a custom field's key or
 * label. Refused when the mapping names a header the file does not have, or a custom field the
 * workspace does not define. Headers compare normalised (csv-columns.ts), so a saved mapping's
 * keys match.
 */
export function resolveMapping(
  headers: string[],
  mapping?: ImportMapping | null,
  customFields: MappableCustomField[] = [],
): ColumnMapping | Refused {
  const byName = mapColumns(headers);
  if (!mapping && customFields.length === 0) return byName;
  const given = new Map(Object.entries(mapping ?? {}).map(([h, t]) => [normalizeHeader(h), t] as const));
  const present = new Set(headers.map(normalizeHeader));
  const unknown = Object.keys(mapping ?? {}).filter((h) => !present.has(normalizeHeader(h)));
  if (unknown.length > 0)
    return refused("invalid", `The column mapping names a column the file does not have: '${unknown[0]}'.`, {
      field: "mapping",
    });
  const defined = new Set(customFields.map((f) => f.key));
  const undefinedKey = [...given.values()].find((t) => t.target === "custom_field" && !defined.has(t.key));
  if (undefinedKey?.target === "custom_field")
    return refused("invalid", `There is no custom field "${undefinedKey.key}".`, { field: "mapping" });
  const customByName = new Map(
    customFields.flatMap((f) => [
      [normalizeHeader(f.label), f.key],
      [normalizeHeader(f.key), f.key],
    ]),
  );
  const taken = new Set<string>();
  const targets = headers.map((header, i): ColumnTarget => {
    const name = normalizeHeader(header);
    const custom = customByName.get(name);
    const target =
      given.get(name) ??
      (byName.targets[i].target === "skip" && custom
        ? { target: "custom_field", key: custom }
        : byName.targets[i]);
    if (target.target !== "field" && target.target !== "custom_field") return target;
    const slot = target.target === "field" ? target.name : `custom:${target.key}`;
    if (taken.has(slot)) return SKIP;
    taken.add(slot);
    return target;
  });
  return {
    headers,
    targets,
    fields: targets.map(targetField),
    hasEmail: taken.has("email"),
  };
}

/** A resolved mapping as a complete mapping (every header, normalised), as it is saved and proposed. */
export function mappingOf(columns: ColumnMapping): ImportMapping {
  const out: ImportMapping = {};
  columns.headers.forEach((header, i) => {
    const key = normalizeHeader(header);
    if (!(key in out)) out[key] = columns.targets[i];
  });
  return out;
}
