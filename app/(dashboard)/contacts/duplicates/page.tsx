import type { Metadata } from "next";
import Link from "next/link";
import { contactName } from "@/components/contacts/contacts-table";
import { DataTable, ACTIONS_COLUMN } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { requireMember } from "@/lib/auth/context";
import { findDuplicates, type DuplicatePair, type DuplicateSide } from "@/lib/contacts/merge/find-duplicates";
import { withReadUser } from "@/lib/db/doors";
import { pageParam } from "@/lib/http/page-param";

export const metadata: Metadata = { title: "Possible duplicates" };

const REASONS: Record<DuplicatePair["reasons"][number], string> = {
  phone: "Same phone",
  name_email: "Same name, similar email",
};

/**
 * Candidate pairs for a merge (docs/decisions.md, "Merging contacts"): the same phone, or the same
 * name with a similar email (pg_trgm). Each pair links to the merge page, the older contact kept.
 */
export default async function DuplicatesPage({
  searchParams,
}: {
  searchParams: Promise<{ page?: string | string[] }>;
}) {
  const ctx = await requireMember();
  const page = pageParam((await searchParams).page);
  const { pairs, hasMore } = await withReadUser(ctx.claims, (db) =>
    findDuplicates(db, { workspaceId: ctx.workspace.workspaceId, page }),
  );
  const person = (c: DuplicateSide) => (
    <>
      <Link href={`/contacts/${c.id}`}>{contactName(c)}</Link>
      <br />
      <span className="muted">
        {c.email}
        {c.phone ? ` · ${c.phone}` : ""} · added{" "}
        <DateTime value={c.created_at} timeZone={ctx.timeZone} dateOnly />
      </span>
    </>
  );
  return (
    <>
      <p>
        <Link href="/contacts">← All contacts</Link>
      </p>
      <h1>Possible duplicates</h1>
      <p>
        Pairs of contacts with the same phone number, or the same name and a similar email address. Compare a
        pair to choose, field by field, what the merged contact keeps.
      </p>
      <DataTable
        rows={pairs}
        columns={["Contact", "Possible duplicate", "Why", ACTIONS_COLUMN]}
        caption="Pairs of contacts that may be the same person"
        empty={
          page > 1
            ? "No more pairs."
            : "No possible duplicates: no two contacts share a phone or a name with a similar email."
        }
      >
        {(pair) => (
          <tr key={`${pair.a.id}-${pair.b.id}`}>
            <td>{person(pair.a)}</td>
            <td>{person(pair.b)}</td>
            <td>{pair.reasons.map((r) => REASONS[r]).join("; ")}</td>
            <td>
              <Link href={`/contacts/${pair.a.id}/merge?with=${pair.b.id}`}>
                Compare
                <span className="sr-only">
                  {" "}
                  {pair.a.email} and {pair.b.email}
                </span>
              </Link>
            </td>
          </tr>
        )}
      </DataTable>
      <nav className="pagination" aria-label="Pages of duplicates">
        {page > 1 && (
          <Link href={`/contacts/duplicates?page=${page - 1}`} rel="prev" className="button secondary">
            Previous
          </Link>
        )}
        {hasMore && (
          <Link href={`/contacts/duplicates?page=${page + 1}`} rel="next" className="button secondary">
            Next
          </Link>
        )}
      </nav>
    </>
  );
}
