import type postgres from "postgres";
import type { Db } from "@/lib/db/doors";
import { containsPattern, searchTokens } from "@/lib/contacts/get-contacts-params";
import {
  checkCustomFieldFilter,
  customFieldFilterSql,
  listCustomFields,
  type CustomField,
  type CustomFieldFilter,
} from "@/lib/contacts/custom-fields";
import { leaves, type Condition, type Node, type SegmentFilter, type Window } from "./filter";

export type Fragment = postgres.PendingQuery<postgres.Row[]>;
/** The workspace's custom field definitions by key, for custom_field conditions. */
export type SegmentFields = ReadonlyMap<string, CustomField>;
const NO_FIELDS: SegmentFields = new Map();

/** The definitions a filter's custom_field conditions need (none read when it has none). */
export async function segmentFields(
  db: Db,
  workspaceId: string,
  filter: SegmentFilter,
): Promise<SegmentFields> {
  if (!leaves(filter.root).some((c) => c.kind === "custom_field")) return NO_FIELDS;
  return new Map((await listCustomFields(db, workspaceId)).map((f) => [f.key, f]));
}

/**
 * The filter as one SQL predicate over `public.contacts c` (docs/decisions.md, "Segments"), every
 * value a bound parameter. Each related table is read with the workspace's id as well as the
 * contact's, so an id of another workspace's tag, form, event, product or broadcast matches
 * nothing. EXISTS and IN sub-queries at the top level become semi-joins, so the planner may start
 * from the narrowest index (the tag's holders, the product's purchases) instead of the contacts.
 */
export function segmentCondition(
  db: Db,
  workspaceId: string,
  filter: SegmentFilter,
  fields: SegmentFields = NO_FIELDS,
): Fragment {
  return db`c.workspace_id = ${workspaceId} and ${nodeSql(db, workspaceId, filter.root, fields)}`;
}

export function nodeSql(db: Db, ws: string, node: Node, fields: SegmentFields = NO_FIELDS): Fragment {
  const sql =
    node.kind === "group"
      ? groupSql(db, ws, node.op, node.conditions, fields)
      : conditionSql(db, ws, node, fields);
  return node.not ? db`not (${sql})` : sql;
}

function groupSql(db: Db, ws: string, op: "and" | "or", children: Node[], fields: SegmentFields): Fragment {
  if (children.length === 0) return op === "and" ? db`true` : db`false`;
  const parts = children.map((child) => nodeSql(db, ws, child, fields));
  const joined = parts.reduce((acc, part) => (op === "and" ? db`${acc} and ${part}` : db`${acc} or ${part}`));
  return db`(${joined})`;
}

/** One condition, without its `not`. */
export function conditionSql(db: Db, ws: string, c: Condition, fields: SegmentFields = NO_FIELDS): Fragment {
  switch (c.kind) {
    case "custom_field": {
      const field = fields.get(c.key);
      const { kind: _kind, not: _not, key: _key, ...rest } = c;
      const checked = field ? checkCustomFieldFilter(field, rest as CustomFieldFilter) : null;
      // a key the workspace does not define, or a filter its type refuses, matches no one
      return field && checked && "data" in checked
        ? customFieldFilterSql(db, field, checked.data)
        : db`false`;
    }
    case "tag": {
      const tagIds = [...new Set(c.tagIds.map((t) => t.toLowerCase()))];
      return c.match === "any"
        ? db`exists (select 1 from public.contact_tags ct
                     where ct.contact_id = c.id and ct.workspace_id = ${ws} and ct.tag_id = any(${tagIds}::uuid[]))`
        : db`c.id in (select ct.contact_id from public.contact_tags ct
                      where ct.workspace_id = ${ws} and ct.tag_id = any(${tagIds}::uuid[])
                      group by ct.contact_id having count(*) = ${tagIds.length})`;
    }
    case "source":
      return db`c.source = any(${c.sources}::text[])`;
    case "search": {
      const patterns = searchTokens(c.text).map(containsPattern);
      return db`c.search_text like all(${patterns}::text[])`;
    }
    case "email_status":
      return db`public.contact_email_status(c.is_subscribed, c.unsubscribed_at, c.email_suppressed) = ${c.status}`;
    case "consent":
      return consentSql(db, ws, c.state);
    case "suppression":
      return db`exists (select 1 from public.contact_suppressions s
                        where s.contact_id = c.id and s.workspace_id = ${ws}
                        ${c.reasons.length ? db`and s.reason = any(${c.reasons}::text[])` : db``})`;
    case "created":
      return windowSql(db, db`c.created_at`, c.window);
    case "form_submitted":
      return db`exists (select 1 from ${eventRowsSql(db, ws, c)} and x.contact_id = c.id)`;
    case "event_registered":
      return db`exists (select 1 from public.event_registrations r
                        where r.contact_id = c.id and r.workspace_id = ${ws} and r.status = 'registered'
                        ${c.eventId ? db`and r.event_id = ${c.eventId}` : db``})`;
    case "event_attended":
      return db`exists (select 1 from public.event_registrations r
                        where r.contact_id = c.id and r.workspace_id = ${ws} and r.checked_in_at is not null
                        ${c.eventId ? db`and r.event_id = ${c.eventId}` : db``})`;
    case "event_no_show":
      return db`exists (select 1 from public.event_registrations r
                        join public.events e on e.id = r.event_id and e.workspace_id = r.workspace_id
                        where r.contact_id = c.id and r.workspace_id = ${ws} and r.status = 'registered'
                          and r.checked_in_at is null and coalesce(e.end_time, e.start_time) < now()
                        ${c.eventId ? db`and r.event_id = ${c.eventId}` : db``})`;
    case "purchased":
      return db`exists (select 1 from ${eventRowsSql(db, ws, c)} and x.contact_id = c.id)`;
    case "email_engagement": {
      const at = ENGAGEMENT_COLUMN(db)[c.event];
      return db`exists (select 1 from public.email_sends e
                        join public.email_send_stats st on st.email_send_id = e.id and st.workspace_id = ${ws}
                        where e.contact_id = c.id and e.workspace_id = ${ws}
                        ${c.broadcastId ? db`and e.broadcast_id = ${c.broadcastId}` : db``}
                        and ${at} is not null and ${windowSql(db, at, c.window)})`;
    }
  }
}

/** A condition kind read from one table of dated rows per contact (EventRows). */
export type EventCondition = Extract<Condition, { kind: "purchased" | "form_submitted" }>;

/**
 * The rows `x` that satisfy a purchased or form_submitted condition, as `<table> x where ...`
 * (any contact): the condition is "the contact has such a row", and countSegment may start from
 * these rows instead of the contacts (see there).
 */
export function eventRowsSql(db: Db, ws: string, c: EventCondition): Fragment {
  if (c.kind === "form_submitted") {
    return db`public.form_submissions x where x.workspace_id = ${ws}
              ${c.formId ? db`and x.form_id = ${c.formId}` : db``}
              and ${windowSql(db, db`x.created_at`, c.window)}`;
  }
  return db`public.transactions x where x.workspace_id = ${ws} and x.status = 'succeeded'
            ${c.productId ? db`and x.product_id = ${c.productId}` : db``}
            ${c.minAmount !== undefined ? db`and x.amount_paid >= ${c.minAmount}` : db``}
            ${c.maxAmount !== undefined ? db`and x.amount_paid <= ${c.maxAmount}` : db``}
            and ${windowSql(db, db`x.transaction_date`, c.window)}`;
}

/** The first time of each event on a send (email_send_stats); opens and clicks by people only. */
const ENGAGEMENT_COLUMN = (
  db: Db,
): Record<Extract<Condition, { kind: "email_engagement" }>["event"], Fragment> => ({
  delivered: db`st.delivered_at`,
  opened: db`st.human_opened_at`,
  clicked: db`st.human_clicked_at`,
  bounced: db`st.bounced_at`,
  complained: db`st.complained_at`,
  unsubscribed: db`st.unsubscribed_at`,
});

/** Spec 3.3 consent states; marketing_eligible is spec 8.3 (no suppression of any reason). */
function consentSql(db: Db, ws: string, state: Extract<Condition, { kind: "consent" }>["state"]): Fragment {
  switch (state) {
    case "subscribed":
      return db`(c.is_subscribed and c.unsubscribed_at is null)`;
    case "unsubscribed":
      return db`(c.unsubscribed_at is not null)`;
    case "not_opted_in":
      return db`(not c.is_subscribed and c.unsubscribed_at is null)`;
    case "marketing_eligible":
      return db`(c.is_subscribed and c.unsubscribed_at is null and not exists (
                  select 1 from public.contact_suppressions s where s.contact_id = c.id and s.workspace_id = ${ws}))`;
  }
}

/** A window on a timestamp column; an empty window is always true. Days are UTC calendar days. */
function windowSql(db: Db, column: Fragment, w: Window): Fragment {
  const parts: Fragment[] = [];
  if (w.withinDays !== undefined) parts.push(db`${column} >= now() - make_interval(days => ${w.withinDays})`);
  if (w.onOrAfter) parts.push(db`${column} >= (${w.onOrAfter}::date)::timestamp at time zone 'UTC'`);
  if (w.before) parts.push(db`${column} < (${w.before}::date)::timestamp at time zone 'UTC'`);
  if (parts.length === 0) return db`true`;
  return parts.reduce((acc, part) => db`${acc} and ${part}`);
}
