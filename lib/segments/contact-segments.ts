import type { Db } from "@/lib/db/doors";
import { segmentCondition, type SegmentFields } from "./compile";
import { listCustomFields } from "@/lib/contacts/custom-fields";
import { segmentFilterSchema } from "./filter";

/**
 * The workspace's segments one contact is in, by name (the contact page's "In segments"). One
 * statement: each segment's predicate tested on the one contact row (an index probe each).
 * Segments whose stored filter no longer parses are left out.
 */
export async function contactSegments(
  db: Db,
  input: { workspaceId: string; contactId: string },
): Promise<{ id: string; name: string }[]> {
  const segments = await db<{ id: string; name: string; filter: unknown }[]>`
    select id, name, filter from public.segments where workspace_id = ${input.workspaceId}
    order by lower(name), name, id limit 200`;
  const fields: SegmentFields = new Map(
    segments.length ? (await listCustomFields(db, input.workspaceId)).map((f) => [f.key, f]) : [],
  );
  const tests = segments.flatMap((s) => {
    const filter = segmentFilterSchema.safeParse(s.filter);
    if (!filter.success) return [];
    return [
      db`select ${s.id}::uuid as id where exists (select 1 from public.contacts c
           where c.id = ${input.contactId} and ${segmentCondition(db, input.workspaceId, filter.data, fields)})`,
    ];
  });
  if (tests.length === 0) return [];
  const union = tests.reduce((acc, t) => db`${acc} union all ${t}`);
  const inside = new Set((await db<{ id: string }[]>`${union}`).map((r) => r.id));
  return segments.filter((s) => inside.has(s.id)).map(({ id, name }) => ({ id, name }));
}
