import Link from "next/link";
import type { TagRef } from "@/lib/contacts/types";

/** A tag; with `href`, a link (e.g. to the list filtered by it). */
export function TagBadge({ tag, href }: { tag: TagRef; href?: string }) {
  const style = tag.color ? { borderColor: tag.color } : undefined;
  return href ? (
    <Link href={href} className="badge" style={style} aria-label={`Show contacts tagged ${tag.name}`}>
      {tag.name}
    </Link>
  ) : (
    <span className="badge" style={style}>
      {tag.name}
    </span>
  );
}
