import type postgres from "postgres";
import type { JSONValue } from "postgres";
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
 * The SQL condition for one custom field filter on the contacts row `alias` (default `c`), to
 * AND into a list's WHERE. Equality, contains-any and is-set read the GIN index on
 * contacts.custom_fields (its predicate `custom_fields <> '{}'` is repeated so the planner may use
 * it); ranges and text search test the rows the other conditions select. Check the filter with
 * checkCustomFieldFilter first: the field decides how values compare.
 */
export function customFieldFilterSql(
  db: Db,
  field: CustomField,
  filter: CustomFieldFilter,
  alias = "c",
): Fragment {
  const col = db`${db(alias)}.custom_fields`;
  const has = (value: unknown) => db`${col} @> ${db.json({ [field.key]: value } as JSONValue)}`;
  const indexed = (condition: Fragment) => db`(${col} <> '{}'::jsonb and ${condition})`;
  const multi = field.field_type === "multi_select";
  switch (filter.op) {
    case "eq":
      return indexed(has(multi ? [filter.value] : filter.value));
    case "any": {
      const parts = filter.values.map((v) => has(multi ? [v] : v));
      if (parts.length === 0) return db`false`;
      return indexed(db`(${parts.reduce((acc, part) => db`${acc} or ${part}`)})`);
    }
    case "range":
      return indexed(rangeSql(db, col, field, filter));
    case "contains":
      return indexed(db`strpos(lower(${col} ->> ${field.key}), ${filter.text.toLowerCase()}) > 0`);
    case "set":
      return indexed(db`${col} ? ${field.key}`);
    case "not_set":
      return db`not (${col} ? ${field.key})`;
  }
}

function rangeSql(
  db: Db,
  col: Fragment,
  field: CustomField,
  filter: { min?: number | string; max?: number | string },
): Fragment {
  // a number compares as numeric (guarded: another workspace may use the key for text); a
  // date 'YYYY-MM-DD' compares as text in byte order
  const value =
    field.field_type === "number"
      ? db`(case when jsonb_typeof(${col} -> ${field.key}) = 'number' then (${col} ->> ${field.key})::numeric end)`
      : db`((${col} ->> ${field.key}) collate "C")`;
  const cast = (v: number | string) =>
    field.field_type === "number" ? db`${String(v)}::numeric` : db`${String(v)}`;
  // no `? key` here: it matches most rows, and a GIN bitmap over them is slower than reading the
  // rows the other conditions select (scripts/bench/custom-fields.ts)
  const parts: Fragment[] = [db`${value} is not null`];
  if (filter.min !== undefined) parts.push(db`${value} >= ${cast(filter.min)}`);
  if (filter.max !== undefined) parts.push(db`${value} <= ${cast(filter.max)}`);
  return parts.reduce((acc, part) => db`${acc} and ${part}`);
}
