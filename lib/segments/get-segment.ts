import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import { refused, type Result } from "@/lib/errors/app-error";
import { parseSegmentFilter } from "./filter";
import { SEGMENT_NOT_FOUND, type Segment } from "./segment-schemas";

/**
 * A segment of the workspace with its filter parsed. A stored filter that no longer parses (the
 * column is writable through the REST API) is refused as `invalid`, never run.
 */
export async function getSegment(
  db: Db,
  input: { workspaceId: string; segmentId: string },
): Promise<Result<Segment>> {
  if (!isUuid(input.segmentId)) return refused("not_found", SEGMENT_NOT_FOUND);
  const [row] = await db<Segment[]>`
    select id, workspace_id, name, filter, created_at, updated_at from public.segments
    where id = ${input.segmentId} and workspace_id = ${input.workspaceId}`;
  if (!row) return refused("not_found", SEGMENT_NOT_FOUND);
  const filter = parseSegmentFilter(row.filter);
  return "error" in filter ? filter : { data: { ...row, filter: filter.data } };
}

/** The workspace's segments by name (at most 200), filters unparsed: for lists and choosers. */
export async function listSegments(db: Db, input: { workspaceId: string }) {
  return db<{ id: string; name: string; updated_at: Date }[]>`
    select id, name, updated_at from public.segments
    where workspace_id = ${input.workspaceId}
    order by lower(name), name, id
    limit 200`;
}

/**
 * A page of the workspace's segments, oldest first, for the REST API's cursor list (docs/api.md):
 * `limit + 1` rows after the last one seen, each with its creation time as written (`sort_key`).
 */
export async function listSegmentsPage(
  db: Db,
  input: { workspaceId: string; limit: number; after: { key: string; id: string } | null },
) {
  const after = input.after;
  return db<(Omit<Segment, "filter"> & { filter: unknown; sort_key: string })[]>`
    select created_at::text as sort_key, id, workspace_id, name, filter, created_at, updated_at
    from public.segments
    where workspace_id = ${input.workspaceId}
      ${after ? db`and (created_at, id) > (${after.key}::timestamptz, ${after.id}::uuid)` : db``}
    order by created_at, id
    limit ${input.limit + 1}`;
}
