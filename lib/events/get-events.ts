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
  const where = eventConditions(db, input.workspaceId, p);
  const { column, direction } = eventOrder(db, p);
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

/**
 * getEvents by keyset instead of page (the REST API's cursor lists, docs/api.md): the same
 * filters and order, the `limit + 1` events after `after` (the sort key and id of the last event
 * seen, as `sort_key` of a row), so a walk neither repeats nor skips an event while others are added.
 */
export async function getEventsAfter(
  db: Db,
  input: { workspaceId: string; limit: number; after: { key: string; id: string } | null } & GetEventsParams,
): Promise<(EventListItem & { sort_key: string })[]> {
  const p = getEventsSchema.parse(input);
  const { column, direction, cast, asc } = eventOrder(db, p);
  const where = eventConditions(db, input.workspaceId, p);
  const after = input.after
    ? asc
      ? db`and (${column} > ${input.after.key}::${cast} or (${column} = ${input.after.key}::${cast} and e.id > ${input.after.id}))`
      : db`and (${column} < ${input.after.key}::${cast} or (${column} = ${input.after.key}::${cast} and e.id > ${input.after.id}))`
    : db``;
  return db<(EventListItem & { sort_key: string })[]>`
    select e.*, ${column}::text as sort_key,
           (select count(*)::int from public.event_registrations r
            where r.event_id = e.id and r.status = 'registered') as registration_count
    from public.events e
    where ${where} ${after}
    order by ${column} ${direction}, e.id
    limit ${input.limit + 1}`;
}

type EventsFilter = ReturnType<typeof getEventsSchema.parse>;

function eventConditions(db: Db, workspaceId: string, p: EventsFilter) {
  const conditions = [db`e.workspace_id = ${workspaceId}`];
  if (p.search) {
    const pattern = likePattern(p.search);
    conditions.push(db`(e.name ilike ${pattern} or e.location ilike ${pattern})`);
  }
  if (p.upcoming === true) conditions.push(db`(e.start_time >= now() or e.end_time >= now())`);
  if (p.upcoming === false)
    conditions.push(db`(e.end_time < now() or (e.end_time is null and e.start_time < now()))`);
  if (p.published === true) conditions.push(db`e.is_published is true`);
  if (p.published === false) conditions.push(db`e.is_published is not true`);
  return conditions.reduce((acc, condition) => db`${acc} and ${condition}`);
}

/**
 * The sort column; nulls last either way, written as a never-null expression (the latest or
 * earliest time) so a keyset can compare it.
 */
function eventOrder(db: Db, p: EventsFilter) {
  const asc = p.sortDir === "asc";
  const column = {
    name: db`lower(e.name)`,
    created_at: db`e.created_at`,
    start_time: asc ? db`coalesce(e.start_time, 'infinity')` : db`coalesce(e.start_time, '-infinity')`,
  }[p.sortBy];
  const cast = p.sortBy === "name" ? db`text` : db`timestamptz`;
  return { column, cast, asc, direction: asc ? db`asc` : db`desc` };
}
