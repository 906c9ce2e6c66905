import type { Db } from "@/lib/db/doors";
import { segmentCondition, segmentFields, type Fragment, type SegmentFields } from "./compile";
import { listCustomFields } from "@/lib/contacts/custom-fields";
import { segmentFilterSchema, type SegmentFilter } from "./filter";

/** Whether the one contact row matches the filter: an index probe, as a sub-query. */
const contactMatches = (
  db: Db,
  workspaceId: string,
  contactId: string,
  filter: SegmentFilter,
  fields: SegmentFields,
): Fragment =>
  db`exists (select 1 from public.contacts c
             where c.id = ${contactId} and ${segmentCondition(db, workspaceId, filter, fields)})`;

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
      db`select ${s.id}::uuid as id where ${contactMatches(db, input.workspaceId, input.contactId, filter.data, fields)}`,
    ];
  });
  if (tests.length === 0) return [];
  const union = tests.reduce((acc, t) => db`${acc} union all ${t}`);
  const inside = new Set((await db<{ id: string }[]>`${union}`).map((r) => r.id));
  return segments.filter((s) => inside.has(s.id)).map(({ id, name }) => ({ id, name }));
}

/**
 * Whether a contact is in a stored segment filter now (an automation's segment when it fires,
 * docs/decisions.md "Segments"). A filter that no longer parses matches no one.
 */
export async function contactInSegment(
  db: Db,
  input: { workspaceId: string; contactId: string; filter: unknown },
): Promise<boolean> {
  const filter = segmentFilterSchema.safeParse(input.filter);
  if (!filter.success) return false;
  const fields = await segmentFields(db, input.workspaceId, filter.data);
  const [row] = await db<{ inside: boolean }[]>`
    select ${contactMatches(db, input.workspaceId, input.contactId, filter.data, fields)} as inside`;
  return row.inside;
}
