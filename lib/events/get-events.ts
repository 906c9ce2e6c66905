import type { Db } from "@/lib/db/doors";
import type { EventRow } from "./event-row";
import { getEventsSchema, type GetEventsParams } from "./schemas";

export interface EventListItem extends EventRow {
  registration_count: number;
}

export interface EventsPage {
  data: EventListItem[];
  total: number;
  page: number;
  pageSize: number;
}

const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * Spec 4.15 getEvents(params):
 * - search: case-insensitive partial match on name or location;
 * - upcoming true: start_time >= now or end_time >= now; false: end_time < now, or
 *   start_time < now when there is no end_time; absent: all;
 * - published true: is_published; false: false or null; absent: all;
 * - sortBy 'name', 'created_at' or 'start_time' (default), sortDir 'asc' (default) or 'desc';
 * - page and pageSize (default 25, at most 100, docs/decisions.md, "What the spec leaves open").
 * Each event carries its count of active registrations.
 */
export async function getEvents(
  db: Db,
  input: { workspaceId: string } & GetEventsParams,
): Promise<EventsPage> {
  const p = getEventsSchema.parse(input);
  const conditions = [db`e.workspace_id = ${input.workspaceId}`];
  if (p.search) {
    const pattern = likePattern(p.search);
    conditions.push(db`(e.name ilike ${pattern} or e.location ilike ${pattern})`);
  }
  if (p.upcoming === true) conditions.push(db`(e.start_time >= now() or e.end_time >= now())`);
  if (p.upcoming === false)
    conditions.push(db`(e.end_time < now() or (e.end_time is null and e.start_time < now()))`);
  if (p.published === true) conditions.push(db`e.is_published is true`);
  if (p.published === false) conditions.push(db`e.is_published is not true`);
  const where = conditions.reduce((acc, condition) => db`${acc} and ${condition}`);

  const column = { name: db`lower(e.name)`, created_at: db`e.created_at`, start_time: db`e.start_time` }[
    p.sortBy
  ];
  const direction = p.sortDir === "asc" ? db`asc nulls last` : db`desc nulls last`;
  const rows = await db<(EventListItem & { total: number })[]>`
    select e.*, count(*) over ()::int as total,
           (select count(*)::int from public.event_registrations r
            where r.event_id = e.id and r.status = 'registered') as registration_count
    from public.events e
    where ${where}
    order by ${column} ${direction}, e.id
    limit ${p.pageSize} offset ${(p.page - 1) * p.pageSize}`;
  // past the last page the window count is missing: count on its own
  const total =
    rows[0]?.total ??
    (p.page > 1 ? (await db`select count(*)::int as n from public.events e where ${where}`)[0].n : 0);
  return { data: rows.map(({ total: _total, ...row }) => row), total, page: p.page, pageSize: p.pageSize };
}
