import type { Metadata } from "next";
import Link from "next/link";
import { ContactFilters } from "@/components/contacts/contact-filters";
import { ContactsTable } from "@/components/contacts/contacts-table";
import { Pagination } from "@/components/ui/pagination";
import { requireMember } from "@/lib/auth/context";
import { getContacts } from "@/lib/contacts/get-contacts";
import { getListOptions } from "@/lib/contacts/get-list-options";
import { listQueryString, parseListQuery, type SearchParams } from "@/lib/contacts/list-query";
import { withReadUser } from "@/lib/db/doors";
import { getSegment } from "@/lib/segments/get-segment";
import { listCustomFields } from "@/lib/contacts/custom-fields/list-custom-fields";

export const metadata: Metadata = { title: "Contacts" };

export default async function ContactsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const ctx = await requireMember();
  const sp = await searchParams;
  const { query, ignored } = parseListQuery(sp);
  const workspaceId = ctx.workspace.workspaceId;
  const timeZone = ctx.timeZone;
  // a list: the read replica when there is one, the member's own writes included (lib/db/replica.ts)
  // ?segment=: a saved segment's filter joins the others (docs/decisions.md, "Segments")
  const [result, options, segment, customFields] = await withReadUser(ctx.claims, async (db) => {
    const found = query.segmentId ? await getSegment(db, { workspaceId, segmentId: query.segmentId }) : null;
    const fields = await listCustomFields(db, workspaceId);
    if (found && "error" in found)
      return [found, await getListOptions(db, { workspaceId }), null, fields] as const;
    return Promise.all([
      getContacts(db, { ...query, workspaceId, segment: found?.data.filter }),
      getListOptions(db, { workspaceId }),
      found?.data ?? null,
      fields,
    ]);
  });
  const columns = customFields.filter((f) => query.columns?.includes(f.key));
  const filtered =
    listQueryString({
      ...query,
      page: 1,
      pageSize: 25,
      sortBy: "created_at",
      sortDir: "desc",
      columns: [],
    }) !== "";

  return (
    <>
      <div className="topbar">
        <h1>Contacts</h1>
        <div className="row">
          <Link href="/contacts/tags" className="button secondary">
            Tags
          </Link>
          <Link href="/contacts/duplicates" className="button secondary">
            Duplicates
          </Link>
          <Link href="/segments" className="button secondary">
            Segments
          </Link>
          <Link href="/contacts/import" className="button secondary">
            Import CSV
          </Link>
          <Link href="/contacts/new" className="button">
            New contact
          </Link>
        </div>
      </div>
      <div role="status" aria-live="polite">
        {sp.deleted === "1" && <div className="alert success">The contact was deleted.</div>}
        {sp.erased === "1" && (
          <div className="alert success">
            The contact was erased. Only a salted hash of the address is kept, so a later import can tell you
            it was erased.
          </div>
        )}
        {ignored && (
          <div className="alert info">Some filters in the address were not valid and were ignored.</div>
        )}
      </div>
      {segment && (
        <p className="alert info">
          In the segment <Link href={`/segments/${segment.id}`}>{segment.name}</Link>.{" "}
          <Link href={`/contacts${listQueryString({ ...query, segmentId: undefined, page: 1 })}`}>
            Show all contacts
          </Link>
        </p>
      )}
      <ContactFilters query={query} options={options} customFields={customFields} />
      {filtered && !query.segmentId && (
        <p>
          <Link href={`/segments/new?from=list&${listQueryString({ ...query, page: 1 }).slice(1)}`}>
            Save these filters as a segment
          </Link>
        </p>
      )}
      <h2 className="sr-only">Results</h2>
      {"error" in result ? (
        <div className="alert error">{result.error.message}</div>
      ) : result.data.length === 0 ? (
        <div className="card empty" style={{ marginTop: "1rem" }}>
          {filtered ? "No contacts match these filters." : "No contacts yet. Add one, or import a CSV file."}
        </div>
      ) : (
        <div style={{ marginTop: "1rem" }}>
          <ContactsTable rows={result.data} query={query} timeZone={timeZone} columns={columns} />
          <Pagination
            page={result.page}
            pageSize={result.pageSize}
            total={result.total}
            href={(page) => `/contacts${listQueryString(query, { page })}`}
          />
        </div>
      )}
    </>
  );
}
