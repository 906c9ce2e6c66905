import type postgres from "postgres";
import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import { refused, type Result } from "@/lib/errors/app-error";
import { parseSegmentFilter } from "./filter";
import { SEGMENT_EXISTS, SEGMENT_NOT_FOUND, segmentNameSchema, type Segment } from "./segment-schemas";

/**
 * Creates a segment (no `segmentId`) or replaces an existing one's name and filter. The filter
 * is validated here, whoever calls (docs/decisions.md, "Segments"); names are unique per workspace.
 */
export async function saveSegment(
  db: Db,
  input: { workspaceId: string; segmentId?: string; name: unknown; filter: unknown },
): Promise<Result<Segment>> {
  const name = segmentNameSchema.safeParse(input.name);
  if (!name.success) return refused("invalid", name.error.issues[0].message, { field: "name" });
  const filter = parseSegmentFilter(input.filter);
  if ("error" in filter) return filter;
  const json = filter.data as unknown as postgres.JSONValue;
  if (input.segmentId !== undefined && !isUuid(input.segmentId))
    return refused("not_found", SEGMENT_NOT_FOUND);
  const rows =
    input.segmentId === undefined
      ? await db<Segment[]>`
          insert into public.segments (workspace_id, name, filter)
          values (${input.workspaceId}, ${name.data}, ${db.json(json)})
          on conflict (workspace_id, name) do nothing
          returning id, workspace_id, name, filter, created_at, updated_at`
      : await db<Segment[]>`
          update public.segments set name = ${name.data}, filter = ${db.json(json)}
          where id = ${input.segmentId} and workspace_id = ${input.workspaceId}
            and not exists (select 1 from public.segments o where o.workspace_id = ${input.workspaceId}
                            and o.name = ${name.data} and o.id <> ${input.segmentId})
          returning id, workspace_id, name, filter, created_at, updated_at`;
  if (rows[0]) return { data: rows[0] };
  if (input.segmentId === undefined) return refused("conflict", SEGMENT_EXISTS, { field: "name" });
  const [exists] =
    await db`select 1 from public.segments where id = ${input.segmentId} and workspace_id = ${input.workspaceId}`;
  return exists
    ? refused("conflict", SEGMENT_EXISTS, { field: "name" })
    : refused("not_found", SEGMENT_NOT_FOUND);
}
