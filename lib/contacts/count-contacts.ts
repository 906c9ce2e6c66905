import type postgres from "postgres";
import type { Db } from "@/lib/db/doors";
import type { ContactsQuery } from "./get-contacts-params";

type Fragment = postgres.PendingQuery<postgres.Row[]>;

export interface ListFilters {
  /** a search reads the search function's rows (materialised as `m`), else contacts */
  search: Fragment | null;
  /**
   * every condition of the query, on the alias c (`walk`: included tags as a probe per row;
   * `probe`: custom fields too; see getContacts' pageIds)
   */
  where: (walk: boolean, probe?: boolean) => Fragment;
  include: string[];
  exclude: string[];
  /** how many contacts pass every custom field filter, from the typed values alone (customFieldCountSql) */
  customCount: Fragment | null;
}

/**
 * The total of getContacts (spec 4.15) as a scalar SQL expression, by the cheapest exact route:
 * - a search: the matches already found (`m`), counted;
 * - no event or included tags: the kept per-source counts (contact_counts), less the holders of
 *   any excluded tag;
 * - included tags alone (with or without excluded ones): set arithmetic on contact_tags;
 * - custom field filters alone: their matches in contact_field_values, read from its indexes
 *   (docs/decisions.md, "Custom fields"; `not_set` subtracted from the kept counts), no contacts
 *   row read;
 * - otherwise the rows themselves are counted.
 */
export function countSql(db: Db, q: ContactsQuery, f: ListFilters): Fragment {
  if (f.search) return db`(select count(*) from m)`;
  // a segment (docs/decisions.md, "Segments") is counted on the rows themselves
  if (q.segment) return db`(select count(*) from public.contacts c where ${f.where(false)})`;
  const onlyCustom =
    !q.eventId && !q.source && !q.emailStatus && f.include.length === 0 && f.exclude.length === 0;
  if (onlyCustom && f.customCount) return f.customCount;
  // other custom field filters: the matching rows are counted (no kept count knows them)
  if (!q.eventId && !q.emailStatus && f.include.length === 0 && q.customFields.length === 0) {
    const kept = db`coalesce((select sum(n) from public.contact_counts
      where workspace_id = ${q.workspaceId} ${q.source ? db`and source = ${q.source}` : db``}), 0)`;
    return f.exclude.length > 0 ? db`(${kept} - ${excludedHolders(db, q, f.exclude)})` : kept;
  }
  if (!q.eventId && !q.source && !q.emailStatus && q.customFields.length === 0) {
    const holders =
      q.tagMode === "all"
        ? db`select ct.contact_id from public.contact_tags ct
             where ct.workspace_id = ${q.workspaceId} and ct.tag_id = any(${f.include}::uuid[])
             group by ct.contact_id having count(*) = ${f.include.length}`
        : db`select distinct ct.contact_id from public.contact_tags ct
             where ct.workspace_id = ${q.workspaceId} and ct.tag_id = any(${f.include}::uuid[])`;
    const minus =
      f.exclude.length > 0
        ? db`where not exists (select 1 from public.contact_tags x
               where x.contact_id = h.contact_id and x.tag_id = any(${f.exclude}::uuid[]))`
        : db``;
    return db`(select count(*) from (${holders}) h ${minus})`;
  }
  return db`(select count(*) from public.contacts c where ${f.where(false)})`;
}

/** How many of the (source-filtered) contacts hold any excluded tag. */
function excludedHolders(db: Db, q: ContactsQuery, exclude: string[]): Fragment {
  return q.source
    ? db`(select count(distinct ct.contact_id) from public.contact_tags ct
          join public.contacts c on c.id = ct.contact_id and c.source = ${q.source}
          where ct.workspace_id = ${q.workspaceId} and ct.tag_id = any(${exclude}::uuid[]))`
    : db`(select count(distinct ct.contact_id) from public.contact_tags ct
          where ct.workspace_id = ${q.workspaceId} and ct.tag_id = any(${exclude}::uuid[]))`;
}
