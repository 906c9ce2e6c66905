import type { Db } from "@/lib/db/doors";
import {
  eventRowsSql,
  nodeSql,
  segmentCondition,
  segmentFields,
  type EventCondition,
  type Fragment,
  type SegmentFields,
} from "./compile";
import type { Node, SegmentFilter } from "./filter";

/**
 * Up to this many qualifying rows, a count starts from them (see countSegment); past it, probing
 * each contact costs more than reading the workspace's contacts once.
 */
const DRIVE_LIMIT = 10_000;

/**
 * The live count of a filter's contacts in the workspace (docs/decisions.md, "Segments").
 * When the filter is an AND holding a condition on one product's purchases or one form's
 * submissions with few qualifying rows (a product in a year), the count starts from those rows: their contacts are probed by id, and only
 * the other conditions are tested on them. The planner does not find that plan alone: it prices
 * thousands of probes above one pass over the contacts (docs/performance.md, "Segments").
 */
export async function countSegment(
  db: Db,
  input: { workspaceId: string; filter: SegmentFilter },
): Promise<number> {
  const fields = await segmentFields(db, input.workspaceId, input.filter);
  const [row] = await db<{ n: number }[]>`${segmentCountSql(db, input.workspaceId, input.filter, fields)}`;
  return row.n;
}

/** countSegment's statement (one row, `n`), for a plan to be read (scripts/bench/segments.ts). */
export function segmentCountSql(db: Db, ws: string, filter: SegmentFilter, fields: SegmentFields): Fragment {
  const all = db`(select count(*) from public.contacts c where ${segmentCondition(db, ws, filter, fields)})`;
  const root = filter.root;
  const driver =
    root.kind === "group" && root.op === "and" && !root.not
      ? root.conditions.find(
          (n): n is EventCondition & Node =>
            !n.not &&
            ((n.kind === "purchased" && Boolean(n.productId)) ||
              (n.kind === "form_submitted" && Boolean(n.formId))),
        )
      : undefined;
  if (!driver || root.kind !== "group") return db`select ${all}::int as n`;
  const others = root.conditions
    .filter((n) => n !== driver)
    .map((n) => nodeSql(db, ws, n, fields))
    .reduce((acc, part) => db`${acc} and ${part}`, db`true`);
  // d: the qualifying rows' contacts, one past the limit at most; the CASE runs one branch only
  return db`
    with d as materialized (select x.contact_id from ${eventRowsSql(db, ws, driver)} limit ${DRIVE_LIMIT + 1})
    select (case when (select count(*) from d) <= ${DRIVE_LIMIT}
      then (select count(*) from public.contacts c
            where c.workspace_id = ${ws} and c.id = any(array(select d.contact_id from d)) and ${others})
      else ${all} end)::int as n`;
}
