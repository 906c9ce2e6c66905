import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import { refused, type Result } from "@/lib/errors/app-error";
import { SEGMENT_NOT_FOUND } from "./segment-schemas";

/**
 * Deletes a segment; broadcasts that targeted it keep their other audience (segment_id set null).
 * One an automation keeps to is refused: clearing it would widen the automation to every contact
 * (docs/decisions.md, "Segments").
 */
export async function deleteSegment(
  db: Db,
  input: { workspaceId: string; segmentId: string },
): Promise<Result<{ id: string }>> {
  if (!isUuid(input.segmentId)) return refused("not_found", SEGMENT_NOT_FOUND);
  const [used] = await db<{ name: string }[]>`
    select a.name from public.automations a
    where a.workspace_id = ${input.workspaceId} and a.segment_id = ${input.segmentId} limit 1`;
  if (used)
    return refused(
      "conflict",
      `The automation “${used.name}” uses this segment: remove it or pick another first.`,
    );
  const [row] = await db<{ id: string }[]>`
    delete from public.segments where id = ${input.segmentId} and workspace_id = ${input.workspaceId}
    returning id`;
  return row ? { data: row } : refused("not_found", SEGMENT_NOT_FOUND);
}
