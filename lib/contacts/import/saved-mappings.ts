import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";
import { normalizeHeader, type ColumnMapping } from "./csv-columns";
import { mappingOf, parseImportMapping, targetLabel, type ImportMapping } from "./import-mapping";

/**
 * A header list's key (docs/decisions.md, "CSV import mappings"): the sha256 of its distinct normalised
 * headers, sorted, so the same columns in another order (or spelt 'First Name' for 'first_name') find
 * the same saved mapping, and any other set of columns does not.
 */
export function headerDigest(headers: string[]): string {
  const names = [...new Set(headers.map(normalizeHeader))].sort();
  return createHash("sha256").update(names.join("\n")).digest("hex");
}

/** The workspace's mapping for exactly these headers, if one was saved (and still parses). */
export async function findSavedMapping(
  db: Db,
  workspaceId: string,
  headers: string[],
): Promise<ImportMapping | null> {
  const [row] = await db<{ mapping: unknown }[]>`
    select mapping from public.import_mappings
    where workspace_id = ${workspaceId} and header_digest = ${headerDigest(headers)}`;
  if (!row) return null;
  const parsed = parseImportMapping(row.mapping);
  return "data" in parsed ? parsed.data : null;
}

/** Saves the mapping an import used, for the next file with these headers (the latest wins). */
export async function saveMapping(
  db: Db,
  input: { workspaceId: string; columns: ColumnMapping; userId: string | null },
): Promise<void> {
  const headers = input.columns.headers.map((h) => h.replace(/^\uFEFF/, "").slice(0, 500)).slice(0, 500);
  await db`
    insert into public.import_mappings (workspace_id, header_digest, headers, mapping, updated_by)
    values (${input.workspaceId}, ${headerDigest(input.columns.headers)}, ${headers},
            ${db.json(mappingOf(input.columns) as never)}, ${input.userId})
    on conflict (workspace_id, header_digest) do update
      set headers = excluded.headers, mapping = excluded.mapping, updated_by = excluded.updated_by,
          updated_at = now()`;
}

export const MAPPING_NOT_FOUND = "Import mapping not found.";
/** The settings page lists this many, the most recently used first. */
export const SAVED_MAPPINGS_SHOWN = 100;

/** A saved mapping as Settings → Import mappings shows it. */
export interface SavedMapping {
  id: string;
  /** each header as last written, and what it becomes (a header the mapping omits is matched by name) */
  columns: { header: string; target: string }[];
  /** when an import last saved it (every import saves the mapping it used) */
  lastUsedAt: Date;
  /** the member who last saved it, by name or address; null once they are gone */
  savedBy: string | null;
}

/**
 * The workspace's saved mappings, most recently used first (docs/decisions.md, "CSV import
 * mappings"), as the member: RLS shows their own workspaces' only. A stored mapping that no
 * longer parses shows its headers as matched by name, as the import would use it.
 */
export async function listSavedMappings(db: Db, workspaceId: string): Promise<SavedMapping[]> {
  const rows = await db<
    { id: string; headers: string[]; mapping: unknown; updated_at: Date; saved_by: string | null }[]
  >`
    select m.id, m.headers, m.mapping, m.updated_at,
           coalesce(nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), ''), p.email) as saved_by
    from public.import_mappings m
    left join public.user_profiles p on p.id = m.updated_by
    where m.workspace_id = ${workspaceId}
    order by m.updated_at desc, m.id
    limit ${SAVED_MAPPINGS_SHOWN}`;
  return rows.map((row) => {
    const parsed = parseImportMapping(row.mapping);
    const mapping = "data" in parsed ? parsed.data : {};
    return {
      id: row.id,
      columns: row.headers.map((header) => {
        const target = mapping[normalizeHeader(header)] ?? mapping[header];
        return { header, target: target ? targetLabel(target) : "Matched by name" };
      }),
      lastUsedAt: row.updated_at,
      savedBy: row.saved_by,
    };
  });
}

/**
 * Deletes one saved mapping of the workspace (the next file with its headers is matched by name
 * until an import saves a mapping again). The id is untrusted: one of another workspace, or none,
 * is "not found" and nothing is deleted. The caller checks the role (owners and admins).
 */
export async function deleteSavedMapping(
  db: Db,
  input: { workspaceId: string; mappingId: string },
): Promise<Result<{ id: string; headers: string[] }>> {
  if (!isUuid(input.mappingId)) return refused("not_found", MAPPING_NOT_FOUND);
  const [row] = await db<{ id: string; headers: string[] }[]>`
    delete from public.import_mappings
    where workspace_id = ${input.workspaceId} and id = ${input.mappingId}
    returning id, headers`;
  return row ? { data: row } : refused("not_found", MAPPING_NOT_FOUND);
}
