import type postgres from "postgres";
import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { customFieldValueSchema } from "./validate-custom-field-values";
import type { CustomField, CustomFieldValue } from "./types";

type Fragment = postgres.PendingQuery<postgres.Row[]>;

/**
 * A condition on one custom field, as lists and segments take it:
 * - `eq`: the value equals (a multi select: holds this option);
 * - `any`: a select is one of, a multi select holds at least one of, the options;
 * - `range`: a number or date within `min`..`max` (both inclusive, either open);
 * - `contains`: a text value contains the text (case-insensitive);
 * - `set` / `not_set`: the contact has a value / has none.
 */
export type CustomFieldFilter =
  | { op: "eq"; value: CustomFieldValue }
  | { op: "any"; values: string[] }
  | { op: "range"; min?: number | string; max?: number | string }
  | { op: "contains"; text: string }
  | { op: "set" }
  | { op: "not_set" };

/** Checks a filter against its field's type (a range only on numbers and dates, options that exist, ...). */
export function checkCustomFieldFilter(
  field: CustomField,
  filter: CustomFieldFilter,
): Result<CustomFieldFilter> {
  const value = customFieldValueSchema(field);
  const option = z.string().refine((v) => field.options.includes(v), `${field.label}: no such option.`);
  const bound = field.field_type === "number" ? value : field.field_type === "date" ? value : z.never();
  const schema = z.discriminatedUnion("op", [
    z.object({
      op: z.literal("eq"),
      value: field.field_type === "multi_select" ? option : value,
    }),
    z.object({
      op: z.literal("any"),
      values: field.options.length > 0 ? z.array(option).min(1).max(100) : z.never(),
    }),
    z.object({ op: z.literal("range"), min: bound.optional(), max: bound.optional() }),
    z.object({
      op: z.literal("contains"),
      text: field.field_type === "text" ? z.string().min(1).max(200) : z.never(),
    }),
    z.object({ op: z.literal("set") }),
    z.object({ op: z.literal("not_set") }),
  ]);
  const parsed = schema.safeParse(filter);
  if (!parsed.success) {
    return refused(
      "invalid",
      parsed.error.issues[0]?.message ?? `${field.label}: this filter does not fit the field.`,
      {
        field: field.key,
      },
    );
  }
  return { data: parsed.data as CustomFieldFilter };
}

/**
 * A text value's bytes up to which it is in the text index of contact_field_values (an index
 * entry holds ~2,700 bytes); the same bound as the index's predicate, repeated in the query so the
 * planner may use the index (migration …_custom_field_values.sql).
 */
const INDEXED_TEXT_BYTES = 2000;

/**
 * The condition on a typed value row `v` of contact_field_values (docs/decisions.md, "Custom
 * fields") for a filter that some values pass (every op but `not_set`), each in the column and
 * b-tree of the field's type.
 */
function valueSql(
  db: Db,
  field: CustomField,
  filter: Exclude<CustomFieldFilter, { op: "not_set" }>,
): Fragment {
  const texts = (values: string[]) => {
    const indexed = values.every((v) => Buffer.byteLength(v) <= INDEXED_TEXT_BYTES);
    const bounded = indexed
      ? db` and octet_length(v.value_text) <= ${db.unsafe(String(INDEXED_TEXT_BYTES))}`
      : db``;
    return values.length === 1
      ? db`v.value_text = ${values[0]}${bounded}`
      : db`v.value_text = any(${values}::text[])${bounded}`;
  };
  switch (filter.op) {
    case "eq":
      switch (field.field_type) {
        case "number":
          return db`v.value_num = ${String(filter.value)}::float8`;
        case "date":
          return db`v.value_date = ${String(filter.value)}::date`;
        case "boolean":
          return db`v.value_bool = ${filter.value === true}`;
        default:
          return texts([String(filter.value)]);
      }
    case "any":
      return filter.values.length === 0 ? db`false` : texts(filter.values);
    case "range": {
      const col = field.field_type === "number" ? db`v.value_num` : db`v.value_date`;
      const cast = (v: number | string) =>
        field.field_type === "number" ? db`${String(v)}::float8` : db`${String(v)}::date`;
      const parts: Fragment[] = [db`${col} is not null`];
      if (filter.min !== undefined) parts.push(db`${col} >= ${cast(filter.min)}`);
      if (filter.max !== undefined) parts.push(db`${col} <= ${cast(filter.max)}`);
      return parts.reduce((acc, part) => db`${acc} and ${part}`);
    }
    case "contains":
      // a row check on the field's values: no index serves a substring
      return db`strpos(lower(v.value_text), ${filter.text.toLowerCase()}) > 0`;
    case "set":
      return db`true`;
  }
}

/** The field's typed value rows `v` (both keys of every contact_field_values index lead with them). */
const fieldRows = (db: Db, field: CustomField) =>
  db`public.contact_field_values v where v.workspace_id = ${field.workspace_id} and v.field_id = ${field.id}`;

/**
 * The SQL condition for one custom field filter on the contacts row `alias` (default `c`), to
 * AND into a list's WHERE: a semi-join on the typed values of contact_field_values (docs/decisions.md,
 * "Custom fields"), whose b-trees the planner may use under a member's RLS, unlike the GIN index
 * of contacts.custom_fields. Check the filter with checkCustomFieldFilter first: the field
 * decides how values compare.
 */
export function customFieldFilterSql(
  db: Db,
  field: CustomField,
  filter: CustomFieldFilter,
  alias = "c",
): Fragment {
  const contact = db`v.contact_id = ${db(alias)}.id`;
  if (filter.op === "not_set") return db`not exists (select 1 from ${fieldRows(db, field)} and ${contact})`;
  return db`exists (select 1 from ${fieldRows(db, field)} and ${contact} and ${valueSql(db, field, filter)})`;
}

/**
 * The same condition as one index probe per contacts row (a scalar sub-query, which the planner
 * never turns into a join): for a list whose matches are dense, walking the sort index and
 * probing each row finds the page sooner than reading every match (getContacts' pageIds).
 */
export function customFieldProbeSql(
  db: Db,
  field: CustomField,
  filter: CustomFieldFilter,
  alias = "c",
): Fragment {
  const contact = db`v.contact_id = ${db(alias)}.id`;
  const value = filter.op === "not_set" ? db`true` : valueSql(db, field, filter);
  const found = db`(select true from ${fieldRows(db, field)} and ${contact} and ${value} limit 1)`;
  return filter.op === "not_set" ? db`${found} is null` : db`${found} is not null`;
}

/**
 * How many of the workspace's contacts pass every filter, as a scalar SQL expression read from
 * contact_field_values alone (an index-only scan per filter) and, for `not_set`, the kept count of
 * all contacts (contact_counts): the exact total of a list filtered only on custom fields, without
 * reading a contacts row. Null when there are no filters.
 */
export function customFieldCountSql(
  db: Db,
  workspaceId: string,
  filters: { field: CustomField; filter: CustomFieldFilter }[],
): Fragment | null {
  if (filters.length === 0) return null;
  const holders = filters.map(({ field, filter }) => {
    const value = filter.op === "not_set" ? db`true` : valueSql(db, field, filter);
    // one row per contact and field, but for the options of a multi select
    const distinct = field.field_type === "multi_select" && filter.op !== "eq" ? db`distinct ` : db``;
    return {
      not: filter.op === "not_set",
      set: db`select ${distinct}v.contact_id from ${fieldRows(db, field)} and ${value}`,
    };
  });
  const union = (sets: Fragment[], op: Fragment) => sets.reduce((acc, set) => db`${acc} ${op} ${set}`);
  const passing = holders.filter((h) => !h.not).map((h) => h.set);
  const failing = holders.filter((h) => h.not).map((h) => h.set);
  if (passing.length === 0) {
    const everyone = db`coalesce((select sum(n) from public.contact_counts where workspace_id = ${workspaceId}), 0)`;
    return db`(${everyone} - (select count(*) from (${union(failing, db`union`)}) m))`;
  }
  const all = union(passing, db`intersect`);
  return failing.length === 0
    ? db`(select count(*) from (${all}) m)`
    : db`(select count(*) from ((${all}) except (${union(failing, db`union`)})) m)`;
}
