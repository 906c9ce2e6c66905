import type { Db } from "@/lib/db/doors";
import { segmentCondition, segmentFields } from "./compile";
import type { SegmentFilter } from "./filter";

/** The live count of a filter's contacts in the workspace (docs/decisions.md, "Segments"). */
export async function countSegment(
  db: Db,
  input: { workspaceId: string; filter: SegmentFilter },
): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from public.contacts c
    where ${segmentCondition(db, input.workspaceId, input.filter, await segmentFields(db, input.workspaceId, input.filter))}`;
  return row.n;
}
