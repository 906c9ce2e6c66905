import type postgres from "postgres";
import type { Db } from "@/lib/db/doors";
import { emailStatus, type EmailStatus, type SuppressionReason } from "@/lib/consent/email-status";
import { contactColumns } from "./contact-columns";
import {
  containsPattern,
  getContactsParamsSchema,
  searchTokens,
  type ContactsQuery,
  type GetContactsParams,
} from "./get-contacts-params";
import { firstIssue } from "./schemas";
import type { Contact, TagRef } from "./types";

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
export async function getContacts(
  db: Db,
  params: GetContactsParams,
): Promise<ContactsPage | { error: string }> {
  const parsed = getContactsParamsSchema.safeParse(params);
  if (!parsed.success) return { error: firstIssue(parsed.error) };
  const q = parsed.data;
  const where = conditions(db, q);
  const order = orderBy(db, q);
  const offset = (q.page - 1) * q.pageSize;

  // The page is chosen on ids alone (index-friendly), then the 25 rows are read in full.
  const rowsQuery = db<(Contact & { tags: TagRef[]; suppressions: SuppressionReason[] })[]>`
    with page as (
      select c.id from public.contacts c
      where ${where}
      order by ${order}
      limit ${q.pageSize} offset ${offset}
    )
    select ${db.unsafe(contactColumns("c"))},
      coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) order by t.name)
         from public.contact_tags ct join public.tags t on t.id = ct.tag_id
         where ct.contact_id = c.id), '[]') as tags,
      coalesce((select json_agg(s.reason order by s.reason)
         from public.contact_suppressions s where s.contact_id = c.id), '[]') as suppressions
    from page join public.contacts c on c.id = page.id
    order by ${order}`;
  const countQuery = db<{ total: number }[]>`
    select count(*)::int as total from public.contacts c where ${where}`;
  const [rows, [{ total }]] = await Promise.all([rowsQuery, countQuery]);

  return {
    data: rows.map((row) => ({ ...row, emailStatus: emailStatus(row, row.suppressions) })),
    total,
    page: q.page,
    pageSize: q.pageSize,
  };
}

function conditions(db: Db, q: ContactsQuery): Fragment {
  const parts: Fragment[] = [db`c.workspace_id = ${q.workspaceId}`];
  for (const word of searchTokens(q.search)) {
    parts.push(
      db`public.contact_search_text(c.email, c.first_name, c.last_name, c.phone) like ${containsPattern(word)}`,
    );
  }
  if (q.source) parts.push(db`c.source = ${q.source}`);
  if (q.eventId) {
    parts.push(db`c.id in (
      select r.contact_id from public.event_registrations r
      where r.event_id = ${q.eventId} and r.status = 'registered')`);
  }
  const include = [...new Set([...(q.tagId ? [q.tagId] : []), ...q.tagIds])];
  if (include.length > 0 && q.tagMode === "any") {
    parts.push(db`c.id in (
      select ct.contact_id from public.contact_tags ct where ct.tag_id = any(${include}::uuid[]))`);
  } else if (include.length > 0) {
    parts.push(db`c.id in (
      select ct.contact_id from public.contact_tags ct where ct.tag_id = any(${include}::uuid[])
      group by ct.contact_id having count(*) = ${include.length})`);
  }
  const exclude = [...new Set(q.excludeTagIds)];
  if (exclude.length > 0) {
    parts.push(db`c.id not in (
      select ct.contact_id from public.contact_tags ct where ct.tag_id = any(${exclude}::uuid[]))`);
  }
  return parts.reduce((all, part) => db`${all} and ${part}`);
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
