import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/doors";
import { normalizeHeader, type ColumnMapping } from "./csv-columns";
import { mappingOf, parseImportMapping, type ImportMapping } from "./import-mapping";

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
