import Link from "next/link";
import { LIST_PAGE_SIZE } from "@/lib/http/page-param";

/** Previous / next links and where the reader is; the links keep every other filter. */
export function Pagination({
  page,
  pageSize,
  total,
  href,
  label = "Pagination",
}: {
  page: number;
  pageSize: number;
  total: number;
  href: (page: number) => string;
  /** the navigation's accessible name, when a page has more than one list */
  label?: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : Math.min((page - 1) * pageSize + 1, total);
  const last = Math.min(page * pageSize, total);
  return (
    <nav className="pagination" aria-label={label}>
      {page > 1 ? (
        <Link href={href(page - 1)} rel="prev" className="button secondary">
          Previous
        </Link>
      ) : (
        <span className="button secondary" aria-disabled="true" style={{ opacity: 0.5 }}>
          Previous
        </span>
      )}
      <span aria-live="polite">
        {first.toLocaleString("en-US")}–{last.toLocaleString("en-US")} of {total.toLocaleString("en-US")} ·
        page {page.toLocaleString("en-US")} of {pages.toLocaleString("en-US")}
      </span>
      {page < pages ? (
        <Link href={href(page + 1)} rel="next" className="button secondary">
          Next
        </Link>
      ) : (
        <span className="button secondary" aria-disabled="true" style={{ opacity: 0.5 }}>
          Next
        </span>
      )}
    </nav>
  );
}

/** A dashboard list's pager at LIST_PAGE_SIZE rows a page: nothing while the list fits on one. */
export function ListPager(props: {
  page: number;
  total: number;
  href: (page: number) => string;
  label?: string;
}) {
  if (props.total <= LIST_PAGE_SIZE) return null;
  return <Pagination {...props} pageSize={LIST_PAGE_SIZE} />;
}
