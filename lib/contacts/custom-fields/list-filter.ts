import type postgres from "postgres";
import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import {
  checkCustomFieldFilter,
  customFieldFilterSql,
  customFieldCountSql,
  customFieldProbeSql,
  type CustomFieldFilter,
} from "./filter-sql";
import { listCustomFields } from "./list-custom-fields";
import { parseCustomFieldText } from "./parse-custom-field-text";
import type { CustomField } from "./types";

type Fragment = postgres.PendingQuery<postgres.Row[]>;

/**
 * A custom field filter as a list query carries it (the URL, getContacts): texts, converted by
 * the field's type when the definitions are read. `values` holds one value for `eq`, several
 * for `any`.
 */
export const customFieldListFilterSchema = z.object({
  key: z.string().max(63),
  op: z.enum(["eq", "any", "range", "contains", "set", "not_set"]),
  values: z.array(z.string().max(200)).max(50).optional(),
  min: z.string().max(50).optional(),
  max: z.string().max(50).optional(),
});
export type CustomFieldListFilter = z.input<typeof customFieldListFilterSchema>;

/** A list filter in its field's type, checked (an unknown key or a bad value is `invalid`). */
export function toCustomFieldFilter(
  field: CustomField,
  raw: CustomFieldListFilter,
): Result<CustomFieldFilter> {
  const typed = (text: string) => parseCustomFieldText(field, text);
  const bound = (text: string | undefined) => {
    if (text === undefined || text.trim() === "") return undefined;
    const value = typed(text);
    return typeof value === "number" || typeof value === "string" ? value : text;
  };
  const values = raw.values ?? [];
  const multi = field.field_type === "multi_select";
  let filter: CustomFieldFilter;
  switch (raw.op) {
    case "eq": {
      const value = multi
        ? (field.options.find((o) => o.toLowerCase() === values[0]?.toLowerCase()) ?? values[0])
        : typed(values[0] ?? "");
      filter = { op: "eq", value: value as never };
      break;
    }
    case "any":
      filter = {
        op: "any",
        values: values.map((v) => field.options.find((o) => o.toLowerCase() === v.toLowerCase()) ?? v),
      };
      break;
    case "range":
      filter = { op: "range", min: bound(raw.min), max: bound(raw.max) };
      break;
    case "contains":
      filter = { op: "contains", text: values[0] ?? "" };
      break;
    default:
      filter = { op: raw.op };
  }
  return checkCustomFieldFilter(field, filter);
}

/** A list's custom field filters as SQL (customFieldConditions). */
export interface CustomFieldConditions {
  /** the conditions on alias `c`, as semi-joins (customFieldFilterSql) */
  where: Fragment[];
  /** the same, as one probe per row (customFieldProbeSql) */
  probes: Fragment[];
  /** how many contacts pass them all, from the typed values alone (customFieldCountSql), or null */
  count: Fragment | null;
}

/** A list's custom field filters as SQL, reading the workspace's definitions once. */
export async function customFieldConditions(
  db: Db,
  workspaceId: string,
  raws: CustomFieldListFilter[],
): Promise<Result<CustomFieldConditions>> {
  if (raws.length === 0) return { data: { where: [], probes: [], count: null } };
  const fields = new Map((await listCustomFields(db, workspaceId)).map((f) => [f.key, f]));
  const checked: { field: CustomField; filter: CustomFieldFilter }[] = [];
  for (const raw of raws) {
    const field = fields.get(raw.key);
    if (!field) return refused("invalid", `There is no custom field "${raw.key}".`, { field: raw.key });
    const filter = toCustomFieldFilter(field, raw);
    if ("error" in filter) return filter;
    checked.push({ field, filter: filter.data });
  }
  return {
    data: {
      where: checked.map(({ field, filter }) => customFieldFilterSql(db, field, filter)),
      probes: checked.map(({ field, filter }) => customFieldProbeSql(db, field, filter)),
      count: customFieldCountSql(db, workspaceId, checked),
    },
  };
}

const PREFIX = "cf.";

/**
 * The URL form of custom field filters (the contacts list): `cf.<key>=<value>` (several values,
 * comma-separated: any of them), `cf.<key>.min=` / `cf.<key>.max=`, `cf.<key>.has=yes|no`,
 * `cf.<key>.contains=<text>`. Keys that are not snake_case are dropped.
 */
export function customFiltersFromParams(
  sp: Record<string, string | string[] | undefined>,
): CustomFieldListFilter[] {
  const byKey = new Map<string, Partial<Record<"eq" | "min" | "max" | "has" | "contains", string>>>();
  for (const [name, rawValue] of Object.entries(sp)) {
    if (!name.startsWith(PREFIX) || rawValue === undefined) continue;
    const value = (Array.isArray(rawValue) ? rawValue.join(",") : rawValue).slice(0, 500);
    const [key, part = "eq"] = name.slice(PREFIX.length).split(".");
    if (!/^[a-z][a-z0-9_]{0,62}$/.test(key) || !["eq", "min", "max", "has", "contains"].includes(part))
      continue;
    byKey.set(key, { ...byKey.get(key), [part]: value });
  }
  const filters: CustomFieldListFilter[] = [];
  for (const [key, p] of [...byKey.entries()].slice(0, 10)) {
    const list = (p.eq ?? "")
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean);
    if (p.has === "yes" || p.has === "no") filters.push({ key, op: p.has === "yes" ? "set" : "not_set" });
    else if (p.min || p.max)
      filters.push({ key, op: "range", min: p.min || undefined, max: p.max || undefined });
    else if (p.contains) filters.push({ key, op: "contains", values: [p.contains] });
    else if (list.length > 1) filters.push({ key, op: "any", values: list });
    else if (list.length === 1) filters.push({ key, op: "eq", values: list });
  }
  return filters;
}

/** The inverse of customFiltersFromParams, for links. */
export function customFiltersToParams(filters: CustomFieldListFilter[], params: URLSearchParams): void {
  for (const f of filters) {
    const name = `${PREFIX}${f.key}`;
    if (f.op === "set" || f.op === "not_set") params.set(`${name}.has`, f.op === "set" ? "yes" : "no");
    else if (f.op === "range") {
      if (f.min) params.set(`${name}.min`, f.min);
      if (f.max) params.set(`${name}.max`, f.max);
    } else if (f.op === "contains") params.set(`${name}.contains`, f.values?.[0] ?? "");
    else params.set(name, (f.values ?? []).join(","));
  }
}
