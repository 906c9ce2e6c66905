import type { Metadata } from "next";
import Link from "next/link";
import { SegmentBuilder } from "@/components/segments/segment-builder";
import { requireMember } from "@/lib/auth/context";
import { parseListQuery, type SearchParams } from "@/lib/contacts/list-query";
import { withReadUser } from "@/lib/db/doors";
import { builderOptions } from "@/lib/segments/builder-options";
import { listQueryToFilter } from "@/lib/segments/from-list-query";
import { filterToFormValues } from "@/lib/segments/segment-form";
import { createSegmentAction } from "../actions";

export const metadata: Metadata = { title: "New segment" };

/** A new segment; `?from=list` starts from the contact list's filters in the rest of the query. */
export default async function NewSegmentPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const ctx = await requireMember();
  const sp = await searchParams;
  const options = await withReadUser(ctx.claims, (db) => builderOptions(db, ctx.workspace.workspaceId));
  const values = sp.from === "list" ? filterToFormValues(listQueryToFilter(parseListQuery(sp).query)) : {};
  return (
    <>
      <p>
        <Link href="/segments">← All segments</Link>
      </p>
      <h1>New segment</h1>
      <div className="card">
        <SegmentBuilder
          action={createSegmentAction}
          options={options}
          initial={{ values }}
          submitLabel="Save segment"
        />
      </div>
    </>
  );
}
