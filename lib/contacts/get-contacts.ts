import type postgres from "postgres";
import type { Db } from "@/lib/db/doors";
import { emailStatus, type EmailStatus, type SuppressionReason } from "@/lib/consent/email-status";
import { contactColumns } from "./contact-columns";
import { countSql, type ListFilters } from "./count-contacts";
import {
  containsPattern,
  getContactsParamsSchema,
  searchTokens,
  type ContactsQuery,
  type GetContactsParams,
} from "./get-contacts-params";
import { firstIssue } from "./schemas";
import type { Contact, TagRef } from "./types";
import { refused, type Refused } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";
import { isEpochMicros } from "@/lib/time/calendar";
import { segmentCondition, segmentFields } from "@/lib/segments/compile";
import { customFieldConditions, type CustomFieldConditions } from "./custom-fields/list-filter";

export interface ContactListRow extends Contact {
  tags: TagRef[];
  suppressions: SuppressionReason[];
  emailStatus: EmailStatus;
}

export interface ContactsPage {
  data: ContactListRow[];
  total: number;
  page: number;
  pageSize: number;
}

type Fragment = postgres.PendingQuery<postgres.Row[]>;

/**
 * Spec 4.15 getContacts: one page of the workspace's contacts, filtered, sorted, with each
 * row's tags and suppressions (for the 3.4 badge) and the total count of matches.
 * Tag resolution is set arithmetic: 'any' is the union of the tags' contact sets, 'all'
 * their intersection, and excludeTagIds subtracts the holders of any excluded tag from
 * that set (or from all the workspace's contacts when no include tags are given).
 */
export async function getContacts(db: Db, params: GetContactsParams): Promise<ContactsPage | Refused> {
  const parsed = getContactsParamsSchema.safeParse(params);
  if (!parsed.success) return refused("invalid", firstIssue(parsed.error));
  const q = parsed.data;
  const custom = await customFieldConditions(db, q.workspaceId, q.customFields);
  if ("error" in custom) return custom;
  const f = listFilters(db, q, custom.data, await segmentPart(db, q));
  const offset = (q.page - 1) * q.pageSize;

  const { total, ids } = await pageIds(db, q, f, offset);

  return {
    data: await pageRows(db, ids),
    total,
    page: q.page,
    pageSize: q.pageSize,
  };
}

/** A keyset position in a contacts list: the sort key of the last row seen, ending with its id. */
export type ContactsKeyset = (string | boolean | null)[];

/**
 * Spec 4.15 getContacts by keyset instead of page number (the REST API's cursor lists, DESIGN
 * section 8): the same filters and order, the rows after `after` (the key of the last row of the
 * previous page; null for the first), and the key of this page's last row when more follow.
 * No total. Rows added during a walk sort before its position (created_at desc) or are new rows
 * at its end, so every row that existed at the start is returned exactly once.
 */
export async function getContactsAfter(
  db: Db,
  params: Omit<GetContactsParams, "page">,
  after: ContactsKeyset | null,
): Promise<{ data: ContactListRow[]; next: ContactsKeyset | null } | Refused> {
  const parsed = getContactsParamsSchema.safeParse({ ...params, page: 1 });
  if (!parsed.success) return refused("invalid", firstIssue(parsed.error));
  const q = parsed.data;
  const custom = await customFieldConditions(db, q.workspaceId, q.customFields);
  if ("error" in custom) return custom;
  const f = listFilters(db, q, custom.data, await segmentPart(db, q));
  const key = keysetOf(db, q);
  if (after && (after.length !== key.length || !key.fits(after)))
    return refused("invalid", "The cursor does not fit this list.");
  const past = after ? db`and ${key.after(after)}` : db``;
  const order = orderBy(db, q);
  const found = f.search
    ? await db<{ id: string; k: ContactsKeyset }[]>`
        with m as materialized (select * from ${f.search} where ${f.where(false)})
        select c.id, ${key.select} as k from m c where true ${past}
        order by ${order} limit ${q.pageSize + 1}`
    : await db<{ id: string; k: ContactsKeyset }[]>`
        select c.id, ${key.select} as k from public.contacts c where ${f.where(true)} ${past}
        order by ${order} limit ${q.pageSize + 1}`;
  const more = found.length > q.pageSize;
  const page = more ? found.slice(0, q.pageSize) : found;
  return {
    data: await pageRows(
      db,
      page.map((r) => r.id),
    ),
    next: more ? page[page.length - 1].k : null,
  };
}

/** A keyset's text and id as a forged cursor may not carry them (docs/decisions.md, "Forged input stops at the edge"). */
const isText = (v: unknown) => typeof v === "string" && v.length <= 1000 && !v.includes("\u0000");
const isId = (v: unknown) => typeof v === "string" && isUuid(v);

/**
 * The sort key of orderBy as a keyset: the JSON array a row's key is read as (timestamps as
 * whole microseconds since the epoch, exact), and the condition "after this key" in the list's
 * direction. Names may be null (ascending puts them last, descending first, as ORDER BY does):
 * each is compared as (is null, value), which orders the same way.
 */
function keysetOf(db: Db, q: ContactsQuery) {
  const cmp = q.sortDir === "asc" ? db`>` : db`<`;
  const micros = (col: Fragment) => db`((extract(epoch from ${col}) * 1000000)::bigint)::text`;
  const at = (v: unknown) => db`('epoch'::timestamptz + ${String(v)}::bigint * interval '1 microsecond')`;
  switch (q.sortBy) {
    case "name":
      return {
        length: 5,
        fits: (k: ContactsKeyset) =>
          typeof k[0] === "boolean" &&
          isText(k[1]) &&
          typeof k[2] === "boolean" &&
          isText(k[3]) &&
          isId(k[4]),
        select: db`json_build_array(c.first_name is null, coalesce(c.first_name, ''),
                                    c.last_name is null, coalesce(c.last_name, ''), c.id)`,
        after: (k: ContactsKeyset) =>
          db`(c.first_name is null, coalesce(c.first_name, ''), c.last_name is null, coalesce(c.last_name, ''), c.id)
             ${cmp} (${Boolean(k[0])}, ${String(k[1])}, ${Boolean(k[2])}, ${String(k[3])}, ${String(k[4])}::uuid)`,
      };
    case "source":
      return {
        length: 3,
        fits: (k: ContactsKeyset) => isText(k[0]) && isEpochMicros(k[1]) && isId(k[2]),
        select: db`json_build_array(c.source, ${micros(db`c.created_at`)}, c.id)`,
        after: (k: ContactsKeyset) =>
          db`(c.source, c.created_at, c.id) ${cmp} (${String(k[0])}, ${at(k[1])}, ${String(k[2])}::uuid)`,
      };
    default:
      return {
        length: 2,
        fits: (k: ContactsKeyset) => isEpochMicros(k[0]) && isId(k[1]),
        select: db`json_build_array(${micros(db`c.created_at`)}, c.id)`,
        after: (k: ContactsKeyset) => db`(c.created_at, c.id) ${cmp} (${at(k[0])}, ${String(k[1])}::uuid)`,
      };
  }
}

/** The page's rows in full, in the order of `ids`, with their tags and suppressions. */
async function pageRows(db: Db, ids: string[]): Promise<ContactListRow[]> {
  const rows =
    ids.length === 0
      ? []
      : await db<(Contact & { tags: TagRef[]; suppressions: SuppressionReason[] })[]>`
    select ${db.unsafe(contactColumns("c"))},
      coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) order by t.name)
         from public.contact_tags ct join public.tags t on t.id = ct.tag_id
         where ct.contact_id = c.id), '[]') as tags,
      coalesce((select json_agg(s.reason order by s.reason)
         from public.contact_suppressions s where s.contact_id = c.id), '[]') as suppressions
    from unnest(${ids}::uuid[]) with ordinality as page(id, position)
    join public.contacts c on c.id = page.id
    order by page.position`;
  return rows.map((row) => ({ ...row, emailStatus: emailStatus(row, row.suppressions) }));
}

/**
 * The total and the page's ids, chosen on ids and sort keys alone (index-friendly); a page
 * past the end is not looked for. A search's matches are found once (m) for both.
 * With included tags the plan follows the count: when the matches are dense enough that
 * walking the sort index finds the page soon, each entry walked is tested with an index
 * probe; otherwise the matches are read from contact_tags and sorted.
 */
async function pageIds(db: Db, q: ContactsQuery, f: ListFilters, offset: number) {
  const order = orderBy(db, q);
  if (f.search) {
    const [row] = await db<{ total: number; ids: string[] }[]>`
      with m as materialized (select * from ${f.search} where ${f.where(false)}),
        t as materialized (select ${countSql(db, q, f)} as total)
      select t.total::int as total,
        case when t.total > ${offset} then array(
          select c.id from m c order by ${order} limit ${q.pageSize} offset ${offset}
        ) else '{}'::uuid[] end as ids
      from t`;
    return row;
  }
  const [{ total, everyone }] = await db<{ total: number; everyone: number }[]>`
    select ${countSql(db, q, f)}::int as total,
      coalesce((select sum(n) from public.contact_counts where workspace_id = ${q.workspaceId}), 0)::float8 as everyone`;
  if (total <= offset) return { total, ids: [] };
  // entries walked to fill the page ~ (offset + size) * everyone / total; rows sorted ~ total
  const dense = (offset + q.pageSize) * everyone < WALK_FACTOR * total * total;
  const walk = (f.include.length === 0 && q.customFields.length === 0) || dense;
  const rows = await db<{ id: string }[]>`
    select c.id from public.contacts c where ${f.where(walk, walk)}
    order by ${order} limit ${q.pageSize} offset ${offset}`;
  return { total, ids: rows.map((r) => r.id) };
}

/** Reading and sorting a matching row costs about this many sort-index entries walked and probed. */
const WALK_FACTOR = 2;

/**
 * What the list reads and its conditions. A search reads the search function's rows (the
 * trigram index is usable only outside RLS; see its migration), otherwise contacts itself.
 */
function listFilters(
  db: Db,
  q: ContactsQuery,
  custom: CustomFieldConditions,
  segment: Fragment[],
): ListFilters {
  const words = searchTokens(q.search);
  // longest word first: the search function's index scan uses the first pattern
  const patterns = words.sort((a, b) => b.length - a.length).map(containsPattern);
  const search =
    patterns.length > 0 ? db`public.search_contacts(${q.workspaceId}, ${patterns}::text[]) c` : null;
  const parts: Fragment[] = [db`c.workspace_id = ${q.workspaceId}`];
  if (q.source) parts.push(db`c.source = ${q.source}`);
  // a search's rows (the search function's) carry only some of the contact's columns: the
  // email status and a segment are then tested on contacts itself
  if (q.emailStatus)
    parts.push(
      search
        ? db`c.id in (select c.id from public.contacts c
                      where c.workspace_id = ${q.workspaceId} and ${emailStatusCondition(db, q.emailStatus)})`
        : emailStatusCondition(db, q.emailStatus),
    );
  parts.push(...segment);
  if (q.eventId) {
    parts.push(db`c.id in (
      select r.contact_id from public.event_registrations r
      where r.event_id = ${q.eventId} and r.status = 'registered')`);
  }
  const include = [...new Set([...(q.tagId ? [q.tagId] : []), ...q.tagIds])];
  const holders =
    include.length === 0
      ? null
      : q.tagMode === "any"
        ? db`select ct.contact_id from public.contact_tags ct where ct.tag_id = any(${include}::uuid[])`
        : db`select ct.contact_id from public.contact_tags ct where ct.tag_id = any(${include}::uuid[])
             group by ct.contact_id having count(*) = ${include.length}`;
  // the same test for one row: an index probe on contact_tags (contact_id, tag_id)
  const holds =
    include.length === 0
      ? null
      : db`(select count(*) from public.contact_tags ct
            where ct.contact_id = c.id and ct.tag_id = any(${include}::uuid[]))
           ${q.tagMode === "any" ? db`> 0` : db`= ${include.length}`}`;
  const exclude = [...new Set(q.excludeTagIds)];
  if (exclude.length > 0) {
    parts.push(db`c.id not in (
      select ct.contact_id from public.contact_tags ct where ct.tag_id = any(${exclude}::uuid[]))`);
  }
  const where = (walk: boolean, probe = false) => {
    const all = [...parts, ...(probe ? custom.probes : custom.where)];
    if (holders && holds) all.push(walk ? holds : db`c.id in (${holders})`);
    return all.reduce((acc, part) => db`${acc} and ${part}`);
  };
  return { search, where, include, exclude, customCount: custom.count };
}

/**
 * A saved segment's filter (docs/decisions.md, "Segments") as one more list condition, tested on
 * contacts itself: a search's rows (the search function's) carry only some of its columns.
 */
async function segmentPart(db: Db, q: ContactsQuery): Promise<Fragment[]> {
  if (!q.segment) return [];
  const fields = await segmentFields(db, q.workspaceId, q.segment);
  return [
    db`c.id in (select c.id from public.contacts c where ${segmentCondition(db, q.workspaceId, q.segment, fields)})`,
  ];
}

/** Ties are broken by the following keys in the same direction, ending with the id. */
function orderBy(db: Db, q: ContactsQuery): Fragment {
  const dir = q.sortDir === "asc" ? db`asc` : db`desc`;
  switch (q.sortBy) {
    case "name":
      return db`c.first_name ${dir}, c.last_name ${dir}, c.id ${dir}`;
    case "source":
      return db`c.source ${dir}, c.created_at ${dir}, c.id ${dir}`;
    default:
      return db`c.created_at ${dir}, c.id ${dir}`;
  }
}

/**
 * The home dashboard's consent share as a list filter (docs/decisions.md, "Home dashboard"): 'suppressed' is
 * a hard suppression (bounce, complaint, manual; kept on the row as email_suppressed), whatever the
 * consent; the other statuses are spec 3.4's priorities 3 to 5 among the contacts without one.
 */
function emailStatusCondition(db: Db, status: NonNullable<ContactsQuery["emailStatus"]>): Fragment {
  return db`public.contact_email_status(c.is_subscribed, c.unsubscribed_at, c.email_suppressed) = ${status}`;
}
