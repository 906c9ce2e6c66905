/**
 * A list's `?page=` as a page number: 1 when absent, and for anything but a whole number from 1
 * (a page past the end shows an empty page with the pager back). Capped, so the offset a page
 * asks for stays bounded.
 */
export function pageParam(value: string | string[] | undefined): number {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw || !/^\d{1,7}$/.test(raw)) return 1;
  return Math.min(Math.max(Number(raw), 1), 1_000_000);
}

/** The rows of one page of the dashboard's long lists (docs/decisions.md, "What the spec leaves open"). */
export const LIST_PAGE_SIZE = 25;

/** The rows page `page` of a list covers, as a query's limit and offset. */
export function pageSlice(page: number): { limit: number; offset: number } {
  return { limit: LIST_PAGE_SIZE, offset: (page - 1) * LIST_PAGE_SIZE };
}

/** The props of a page that reads its query string (its notices, `?saved=1`, `?error=…`). */
export interface QueryPageProps {
  searchParams: Promise<Record<string, string | undefined>>;
}
