import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ConfirmAction } from "@/components/confirm-action";
import { SegmentBuilder } from "@/components/segments/segment-builder";
import { SegmentExplanation } from "@/components/segments/segment-explanation";
import { StepUpDownload } from "@/components/two-factor/step-up-download";
import { requireMember } from "@/lib/auth/context";
import { withReadUser } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import { builderOptions } from "@/lib/segments/builder-options";
import { countSegment } from "@/lib/segments/count-segment";
import { describeCondition, filterNames } from "@/lib/segments/describe-filter";
import { explainContact, findContactForExplain } from "@/lib/segments/explain-contact";
import { leaves } from "@/lib/segments/filter";
import { getSegment } from "@/lib/segments/get-segment";
import { filterToFormValues } from "@/lib/segments/segment-form";
import { deleteSegmentAction, updateSegmentAction } from "../actions";

export const metadata: Metadata = { title: "Segment" };

/**
 * A segment (docs/decisions.md, "Segments"): its live count, its conditions in words, why a
 * given contact (`?contact=` an email or id) is in or out, its contacts, a CSV of them, the
 * builder to change it, and deleting it (confirmed).
 */
export default async function SegmentPage({
  params,
  searchParams,
}: {
  params: Promise<{ segmentId: string }>;
  searchParams: Promise<{ contact?: string }>;
}) {
  const ctx = await requireMember();
  const { segmentId } = await params;
  const { contact } = await searchParams;
  if (!isUuid(segmentId)) notFound();
  const workspaceId = ctx.workspace.workspaceId;
  const data = await withReadUser(ctx.claims, async (db) => {
    const segment = await getSegment(db, { workspaceId, segmentId });
    if ("error" in segment)
      return segment.error.code === "not_found" ? null : { invalid: segment.error.message };
    const filter = segment.data.filter;
    const [count, names, options] = await Promise.all([
      countSegment(db, { workspaceId, filter }),
      filterNames(db, workspaceId),
      builderOptions(db, workspaceId),
    ]);
    const who = contact ? await findContactForExplain(db, { workspaceId, contact }) : null;
    const explained = who ? await explainContact(db, { workspaceId, contactId: who.id, filter }) : null;
    return { segment: segment.data, count, names, options, who, explained };
  });
  if (!data) notFound();
  if ("invalid" in data)
    return <div className="alert error">This segment&apos;s filter is not valid: {data.invalid}</div>;
  const { segment, count, names, options, who, explained } = data;
  const conditions = leaves(segment.filter.root);

  return (
    <>
      <p>
        <Link href="/segments">← All segments</Link>
      </p>
      <div className="topbar">
        <h1>{segment.name}</h1>
        <div className="row">
          <Link href={`/contacts?segment=${segment.id}`} className="button secondary">
            See the contacts
          </Link>
          <StepUpDownload
            href={`/api/segments/${segment.id}/contacts.csv`}
            filename={`segment-${segment.id}.csv`}
            className="button secondary"
          >
            Download CSV
          </StepUpDownload>
        </div>
      </div>
      <section className="card stack" aria-labelledby="count-heading">
        <h2 id="count-heading">
          {count.toLocaleString("en-US")} {count === 1 ? "contact" : "contacts"} now
        </h2>
        {conditions.length === 0 ? (
          <p>No conditions: every contact of the workspace.</p>
        ) : (
          <p>
            Contacts matching {segment.filter.root.op === "and" ? "all" : "any"} of:{" "}
            {conditions.map((c) => describeCondition(c, names)).join("; ")}.
          </p>
        )}
      </section>
      <section className="card stack" aria-labelledby="explain-heading">
        <h2 id="explain-heading">Is a contact in this segment?</h2>
        <form method="get" className="row" style={{ alignItems: "flex-end" }}>
          <div className="field">
            <label htmlFor="explain-contact">Contact email or id</label>
            <input
              id="explain-contact"
              name="contact"
              type="text"
              defaultValue={contact ?? ""}
              maxLength={320}
            />
          </div>
          <button type="submit" className="secondary">
            Explain
          </button>
        </form>
        {contact && !who && (
          <div className="alert info">No contact with that email or id in this workspace.</div>
        )}
        {who && explained && !("error" in explained) && (
          <SegmentExplanation email={who.email} explained={explained.data} names={names} />
        )}
      </section>
      <section className="card stack" aria-labelledby="edit-heading">
        <h2 id="edit-heading">Change the segment</h2>
        <SegmentBuilder
          action={updateSegmentAction.bind(null, segment.id)}
          options={options}
          initial={{ name: segment.name, values: filterToFormValues(segment.filter) }}
          submitLabel="Save changes"
        />
      </section>
      <ConfirmAction
        action={deleteSegmentAction.bind(null, segment.id)}
        label="Delete segment"
        title={`Delete the segment '${segment.name}'?`}
        body="Its contacts stay as they are. Broadcasts that targeted it keep their other audience settings."
        confirmLabel="Delete segment"
      />
    </>
  );
}
