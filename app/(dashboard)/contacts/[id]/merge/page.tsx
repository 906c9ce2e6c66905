import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { MergeForm } from "@/components/contacts/merge-form";
import { contactName } from "@/components/contacts/contacts-table";
import { DataTable } from "@/components/ui/data-table";
import { requireMember } from "@/lib/auth/context";
import { listCustomFields } from "@/lib/contacts/custom-fields";
import { getContactById } from "@/lib/contacts/get-contact-by-id";
import { getContacts } from "@/lib/contacts/get-contacts";
import { mergeView } from "@/lib/contacts/merge/merge-view";
import { withUser } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import { notFoundUnlessUuid } from "@/lib/ids/not-found-unless-uuid";
import { listMembers } from "@/lib/workspaces/list-members";
import { mergeContactsAction } from "./actions";

export const metadata: Metadata = { title: "Merge contacts" };

/**
 * "Merge with…" (docs/decisions.md, "Merging contacts"): without `with`, find the other contact
 * by a search; with it, both side by side and a choice per field.
 */
export default async function MergeContactPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ with?: string; q?: string }>;
}) {
  const { id } = await params;
  notFoundUnlessUuid(id);
  const query = await searchParams;
  const other = isUuid(query.with) && query.with.toLowerCase() !== id.toLowerCase() ? query.with : null;
  const search = query.q?.trim().slice(0, 200) ?? "";
  const ctx = await requireMember();
  const workspaceId = ctx.workspace.workspaceId;
  const [a, b, found, members, customFields] = await withUser(ctx.claims, (db) =>
    Promise.all([
      getContactById(db, { workspaceId, contactId: id }),
      other ? getContactById(db, { workspaceId, contactId: other }) : null,
      !other && search ? getContacts(db, { workspaceId, search, pageSize: 10 }) : null,
      other ? listMembers(db, { workspaceId }) : null,
      other ? listCustomFields(db, workspaceId) : [],
    ]),
  );
  if ("error" in a) notFound();
  const keep = a.data.contact;

  if (!other || !b || "error" in b) {
    const results = found && "data" in found ? found.data.filter((c) => c.id !== keep.id) : [];
    return (
      <>
        <p>
          <Link href={`/contacts/${keep.id}`}>← {contactName(keep)}</Link>
        </p>
        <h1>Merge {contactName(keep)} with…</h1>
        {other && (
          <div role="alert" className="alert error">
            That contact was not found: it may have been merged or deleted already.
          </div>
        )}
        <form method="get" className="stack" role="search" style={{ maxWidth: "32rem" }}>
          <label htmlFor="merge-search">Find the other contact (name, email or phone)</label>
          <input id="merge-search" name="q" type="search" defaultValue={search} />
          <div className="row">
            <button type="submit">Search</button>
            <Link href="/contacts/duplicates">Possible duplicates</Link>
          </div>
        </form>
        {search && (
          <DataTable
            rows={results}
            columns={["Name", "Email", "Phone", "Compare"]}
            caption="Contacts to merge into this one"
            empty="No other contact matches that search."
          >
            {(c) => (
              <tr key={c.id}>
                <td>{contactName(c)}</td>
                <td>{c.email}</td>
                <td>{c.phone}</td>
                <td>
                  <Link href={`/contacts/${keep.id}/merge?with=${c.id}`}>
                    Compare<span className="sr-only"> with {c.email}</span>
                  </Link>
                </td>
              </tr>
            )}
          </DataTable>
        )}
      </>
    );
  }

  const merged = b.data.contact;
  const names = new Map(
    (members && "data" in members ? members.data : []).map((m) => [
      m.userId,
      [m.firstName, m.lastName].filter(Boolean).join(" ") || m.email || "A member",
    ]),
  );
  const view = mergeView(keep, merged, (userId) => names.get(userId) ?? "A former member", customFields);
  const aName = `${contactName(keep)} (kept)`;
  const bName = `${contactName(merged)} (${merged.email})`;
  return (
    <>
      <p>
        <Link href={`/contacts/${keep.id}/merge`}>← Choose another contact</Link>
      </p>
      <h1>
        Merge {merged.email} into {keep.email}
      </h1>
      <p>
        Pick the value to keep for each field.{" "}
        <Link href={`/contacts/${merged.id}/merge?with=${keep.id}`}>Keep {merged.email} instead</Link>.
      </p>
      <MergeForm
        action={mergeContactsAction.bind(null, keep.id, merged.id)}
        fields={view.choices}
        same={view.same}
        aName={aName}
        bName={bName}
      />
    </>
  );
}
