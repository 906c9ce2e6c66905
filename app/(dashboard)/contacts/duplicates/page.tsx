import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { contactName } from "@/components/contacts/contacts-table";
import { DataTable, ACTIONS_COLUMN } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { QueryNotices } from "@/components/ui/query-notices";
import { requireMember } from "@/lib/auth/context";
import { findDuplicates, type DuplicatePair, type DuplicateSide } from "@/lib/contacts/merge/find-duplicates";
import { withReadUser } from "@/lib/db/doors";
import { asFormAction } from "@/lib/http/form-state";
import { pageParam } from "@/lib/http/page-param";
import { isUuid } from "@/lib/ids/uuid";
import { dismissDuplicateAction, restoreDuplicateAction } from "./actions";

export const metadata: Metadata = { title: "Possible duplicates" };

const REASONS: Record<DuplicatePair["reasons"][number], string> = {
  phone: "Same phone",
  name_email: "Same name, similar email",
};

/** The pair a "Not a duplicate" answer names (`?dismissed=<id>.<id>`), for its Undo. */
function dismissedPair(value: string | string[] | undefined): [string, string] | null {
  const pair = (Array.isArray(value) ? value[0] : value)?.split(".") ?? [];
  return pair.length === 2 && pair.every(isUuid) ? [pair[0], pair[1]] : null;
}

/** A plain form posting one pair (no JavaScript needed): "Not a duplicate" or its Undo. */
function PairForm({
  action,
  pair,
  page,
  children,
}: {
  action: typeof dismissDuplicateAction;
  pair: [string, string];
  page: number;
  children: ReactNode;
}) {
  return (
    <form action={asFormAction(action)} className="inline-form">
      <input type="hidden" name="contactId" value={pair[0]} />
      <input type="hidden" name="otherContactId" value={pair[1]} />
      <input type="hidden" name="page" value={String(page)} />
      <button type="submit" className="secondary">
        {children}
      </button>
    </form>
  );
}

/**
 * Candidate pairs for a merge (docs/decisions.md, "Merging contacts"): the same phone, or the same
 * name with a similar email (pg_trgm). Each pair links to the merge page, the older contact kept,
 * or is marked "Not a duplicate" and no longer listed (undone from the notice that follows).
 */
export default async function DuplicatesPage({
  searchParams,
}: {
  searchParams: Promise<{
    page?: string | string[];
    dismissed?: string | string[];
    restored?: string;
    error?: string;
  }>;
}) {
  const ctx = await requireMember();
  const query = await searchParams;
  const page = pageParam(query.page);
  const dismissed = dismissedPair(query.dismissed);
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
        pair to choose, field by field, what the merged contact keeps, or mark two different people as not a
        duplicate.
      </p>
      <QueryNotices
        query={{ error: query.error, restored: query.restored }}
        errors="Those contacts are no longer in this workspace."
        notices={{ restored: "The pair is listed again while it still matches." }}
      />
      {dismissed && (
        <div role="status" className="alert success">
          Marked as not a duplicate: the pair is no longer listed.{" "}
          <PairForm action={restoreDuplicateAction} pair={dismissed} page={page}>
            Undo
          </PairForm>
        </div>
      )}
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
              </Link>{" "}
              <PairForm action={dismissDuplicateAction} pair={[pair.a.id, pair.b.id]} page={page}>
                Not a duplicate
                <span className="sr-only">
                  : {pair.a.email} and {pair.b.email}
                </span>
              </PairForm>
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
