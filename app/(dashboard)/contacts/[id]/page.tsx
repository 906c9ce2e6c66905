import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ChangeSourceDialog } from "@/components/contacts/change-source-dialog";
import { EnrollContact } from "@/components/campaigns/enroll-contact";
import { ConfirmAction } from "@/components/confirm-action";
import { ContactDetailsCard } from "@/components/contacts/contact-details";
import { ContactTimeline } from "@/components/contacts/contact-timeline";
import { contactName } from "@/components/contacts/contacts-table";
import { NoteForm } from "@/components/contacts/note-form";
import { PrivacyPanel } from "@/components/contacts/privacy-panel";
import { TagEditor } from "@/components/contacts/tag-editor";
import { ConsentLedgerList } from "@/components/consent/consent-ledger-list";
import { SubscriptionControls } from "@/components/consent/subscription-controls";
import { SuppressionsPanel } from "@/components/consent/suppressions-panel";
import { QueryNotices } from "@/components/ui/query-notices";
import { TransactionsFeed } from "@/components/payments/transactions-feed";
import { MembershipsPanel } from "@/components/payments/memberships-panel";
import { listContactMemberships } from "@/lib/payments/subscriptions/list-recurring";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { getContactConsent } from "@/lib/consent/get-contact-consent";
import { enrollableCampaigns } from "@/lib/campaigns/dashboard";
import { getContactTransactions } from "@/lib/payments/get-contact-transactions";
import { getContactById } from "@/lib/contacts/get-contact-by-id";
import { decodePosition, getContactTimeline, parseKinds } from "@/lib/contacts/get-contact-timeline";
import { notFoundUnlessUuid } from "@/lib/ids/not-found-unless-uuid";
import { withUser } from "@/lib/db/doors";
import { listTags } from "@/lib/tags/list-tags";
import { contactSegments } from "@/lib/segments/contact-segments";
import { listCustomFields } from "@/lib/contacts/custom-fields/list-custom-fields";
import { CustomFieldValuesCard } from "@/components/contacts/custom-field-values";
import { enrollContactAction } from "../../campaigns/actions";
import { deleteContactAction, updateContactSourceAction } from "../actions";
import { addNoteAction, attachTagAction, detachTagAction } from "./actions";
import { eraseContactAction } from "./privacy-actions";
import {
  addManualBlockAction,
  manualSubscribeAction,
  removeSuppressionAction,
  unsubscribeAction,
} from "../../consent/actions";
import { recordRefundFormAction, revertRefundFormAction } from "../../payments/transaction-actions";

export const metadata: Metadata = { title: "Contact" };

export default async function ContactPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ before?: string; kind?: string | string[]; merged?: string }>;
}) {
  const { id } = await params;
  notFoundUnlessUuid(id);
  const query = await searchParams;
  const before = decodePosition(query.before);
  const kinds = parseKinds(query.kind);
  const ctx = await requireMember();
  const workspaceId = ctx.workspace.workspaceId;
  const timeZone = ctx.timeZone;
  // one transaction for everything the page shows (the layout's and the membership's aside)
  const [details, consent, timeline, tags, transactions, segments, customFields, campaigns, memberships] =
    await withUser(ctx.claims, (db) =>
      Promise.all([
        getContactById(db, { workspaceId, contactId: id }),
        getContactConsent(db, { workspaceId, contactId: id }),
        getContactTimeline(db, { workspaceId, contactId: id, before, kinds }),
        listTags(db, { workspaceId }),
        getContactTransactions(db, { workspaceId, contactId: id }),
        contactSegments(db, { workspaceId, contactId: id }),
        listCustomFields(db, workspaceId),
        enrollableCampaigns(db, { workspaceId, contactId: id }),
        listContactMemberships(db, { workspaceId, contactId: id, limit: 50, after: null }),
      ]),
    );
  if ("error" in details || !consent) notFound();
  const c = details.data.contact;
  const isAdmin = ADMIN_ROLES.includes(ctx.workspace.role);

  return (
    <>
      <p>
        <Link href="/contacts">← All contacts</Link>
      </p>
      <QueryNotices
        query={{ merged: query.merged }}
        notices={{ merged: "The contacts were merged: the other contact's records are now on this one." }}
      />
      <div className="topbar">
        <h1>{contactName(c)}</h1>
        <div className="row">
          <Link href={`/contacts/${c.id}/edit`} className="button secondary">
            Edit
          </Link>
          <Link href={`/contacts/${c.id}/merge`} className="button secondary">
            Merge with…
          </Link>
          {isAdmin && (
            <ChangeSourceDialog action={updateContactSourceAction.bind(null, c.id)} current={c.source} />
          )}
          <ConfirmAction
            action={deleteContactAction.bind(null, c.id)}
            label="Delete"
            title={`Delete ${contactName(c)}?`}
            body="The contact, its tags, notes and suppressions are deleted for good. Purchases, deals, tasks and sent emails are kept without the contact."
            confirmLabel="Delete contact"
          />
        </div>
      </div>
      <ContactDetailsCard details={details.data} timeZone={timeZone} />
      {/* docs/decisions.md, "Segments": the saved segments this contact matches now */}
      <p>
        In segments:{" "}
        {segments.length === 0
          ? "none"
          : segments.map((s, i) => (
              <span key={s.id}>
                {i > 0 && ", "}
                <Link href={`/segments/${s.id}?contact=${c.id}`}>{s.name}</Link>
              </span>
            ))}
      </p>
      <CustomFieldValuesCard fields={customFields} values={c.custom_fields ?? {}} />
      <section aria-labelledby="tags-heading">
        <h2 id="tags-heading">Tags</h2>
        <TagEditor
          tags={details.data.tags}
          allTags={tags.map((t) => t.name)}
          attach={attachTagAction.bind(null, c.id)}
          detach={detachTagAction.bind(null, c.id)}
        />
      </section>
      <EnrollContact campaigns={campaigns} action={enrollContactAction.bind(null, c.id)} />
      <div className="stack">
        <SubscriptionControls
          subscribe={manualSubscribeAction.bind(null, c.id)}
          unsubscribe={unsubscribeAction.bind(null, c.id)}
          status={consent.status}
          subscribed={consent.subscribed}
          hasComplaint={consent.suppressions.some((s) => s.reason === "complaint")}
        />
        <SuppressionsPanel
          contactId={c.id}
          suppressions={consent.suppressions}
          timeZone={timeZone}
          remove={removeSuppressionAction.bind(null, c.id)}
          block={addManualBlockAction.bind(null, c.id)}
        />
        <ConsentLedgerList contactId={c.id} entries={consent.ledger} timeZone={timeZone} />
      </div>
      <MembershipsPanel items={memberships} timeZone={timeZone} />
      <TransactionsFeed
        items={transactions}
        workspaceId={workspaceId}
        timeZone={timeZone}
        recordRefund={recordRefundFormAction}
        revertRefund={revertRefundFormAction}
      />
      {isAdmin && (
        <PrivacyPanel contactId={c.id} email={c.email} erase={eraseContactAction.bind(null, c.id)} />
      )}
      <section aria-labelledby="timeline-heading" id="timeline">
        <h2 id="timeline-heading">Timeline</h2>
        {!before && <NoteForm action={addNoteAction.bind(null, c.id)} />}
        <div style={{ marginTop: "1rem" }}>
          <ContactTimeline
            entries={timeline.data}
            next={timeline.next}
            contactId={c.id}
            timeZone={timeZone}
            kinds={kinds}
          />
        </div>
      </section>
    </>
  );
}
