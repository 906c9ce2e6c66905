import {
  DEFAULT_PAGE_SIZE,
  EMAIL_STATUSES,
  MAX_PAGE_SIZE,
  SORT_FIELDS,
  type ContactsQuery,
} from "./get-contacts-params";
import { isUuid } from "@/lib/ids/uuid";
import { customFiltersFromParams, customFiltersToParams } from "./custom-fields/list-filter";

/**
 * The list's filters and sort as they live in the URL (everything but the workspace), the
 * custom fields chosen as columns, and a saved segment's id (`?segment=`; its filter joins the
 * others, docs/decisions.md "Segments").
 */
export type ListQuery = Omit<ContactsQuery, "workspaceId" | "tagId" | "segment"> & {
  columns?: string[];
  segmentId?: string;
};

export type SearchParams = Record<string, string | string[] | undefined>;

const all = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((v) => v.split(","));
const one = (value: string | string[] | undefined): string | undefined => all(value)[0]?.trim() || undefined;

/**
 * Reads the list query from the URL leniently: a value that does not parse is dropped
 * (and `ignored` says so), so an edited or stale link still shows a list. The legacy
 * `tagId` joins `tagIds`.
 */
export function parseListQuery(sp: SearchParams): { query: ListQuery; ignored: boolean } {
  let ignored = false;
  const ids = (value: string | string[] | undefined) => {
    const list = all(value)
      .map((v) => v.trim())
      .filter(Boolean);
    const good = list.filter((v) => isUuid(v));
    if (good.length !== list.length) ignored = true;
    return [...new Set(good.map((v) => v.toLowerCase()))].slice(0, 50);
  };
  const int = (value: string | string[] | undefined, fallback: number, max: number) => {
    const raw = one(value);
    if (raw === undefined) return fallback;
    if (!/^\d{1,7}$/.test(raw) || Number(raw) < 1) {
      ignored = true;
      return fallback;
    }
    return Math.min(Number(raw), max);
  };
  const pick = <T extends string>(
    value: string | string[] | undefined,
    options: readonly T[],
    fallback: T,
  ): T => {
    const raw = one(value);
    if (raw === undefined) return fallback;
    if ((options as readonly string[]).includes(raw)) return raw as T;
    ignored = true;
    return fallback;
  };
  const eventIds = ids(sp.eventId);
  const query: ListQuery = {
    page: int(sp.page, 1, 1_000_000),
    pageSize: int(sp.pageSize, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    search: one(sp.search)?.slice(0, 200),
    tagIds: [...new Set([...ids(sp.tagId), ...ids(sp.tagIds)])],
    tagMode: pick(sp.tagMode, ["any", "all"] as const, "any"),
    excludeTagIds: ids(sp.excludeTagIds),
    source: one(sp.source)?.slice(0, 100),
    eventId: eventIds[0],
    emailStatus: one(sp.emailStatus)
      ? pick(sp.emailStatus, [...EMAIL_STATUSES, ""] as const, "") || undefined
      : undefined,
    segmentId: ids(sp.segment)[0],
    sortBy: pick(sp.sortBy, SORT_FIELDS, "created_at"),
    sortDir: pick(sp.sortDir, ["asc", "desc"] as const, "desc"),
    customFields: customFiltersFromParams(sp),
    columns: [...new Set(all(sp.columns).map((v) => v.trim()))]
      .filter((v) => /^[a-z][a-z0-9_]{0,62}$/.test(v))
      .slice(0, 20),
  };
  return { query, ignored };
}

/** The URL query for a list state; defaults are left out so links stay short. */
export function listQueryString(query: ListQuery, changes: Partial<ListQuery> = {}): string {
  const q = { ...query, ...changes };
  const params = new URLSearchParams();
  if (q.search) params.set("search", q.search);
  if (q.source) params.set("source", q.source);
  if (q.eventId) params.set("eventId", q.eventId);
  if (q.emailStatus) params.set("emailStatus", q.emailStatus);
  if (q.segmentId) params.set("segment", q.segmentId);
  for (const id of q.tagIds) params.append("tagIds", id);
  if (q.tagIds.length > 1 && q.tagMode !== "any") params.set("tagMode", q.tagMode);
  for (const id of q.excludeTagIds) params.append("excludeTagIds", id);
  if (q.sortBy !== "created_at") params.set("sortBy", q.sortBy);
  if (q.sortDir !== "desc") params.set("sortDir", q.sortDir);
  customFiltersToParams(q.customFields, params);
  if (q.columns && q.columns.length > 0) params.set("columns", q.columns.join(","));
  if (q.pageSize !== DEFAULT_PAGE_SIZE) params.set("pageSize", String(q.pageSize));
  if (q.page > 1) params.set("page", String(q.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}
