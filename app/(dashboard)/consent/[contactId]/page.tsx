import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ConsentLedgerList } from "@/components/consent/consent-ledger-list";
import { SubscriptionControls } from "@/components/consent/subscription-controls";
import { SuppressionsPanel } from "@/components/consent/suppressions-panel";
import { LocalTime } from "@/components/local-time";
import { requireMember } from "@/lib/auth/context";
import { getContactConsent } from "@/lib/consent/get-contact-consent";
import { withUser } from "@/lib/db/doors";

export const metadata: Metadata = { title: "Consent and email" };

/** A contact's subscription, suppressions and consent history; the same components embed in the contact page. */
export default async function ContactConsentPage({ params }: { params: Promise<{ contactId: string }> }) {
  const { contactId } = await params;
  const ctx = await requireMember();
  const data = await withUser(ctx.claims, (db) =>
    getContactConsent(db, { workspaceId: ctx.workspace.workspaceId, contactId }),
  );
  if (!data) notFound();
  const { contact } = data;
  return (
    <div className="stack">
      <div className="topbar">
        <h1>
          Consent and email: {contact.name ?? contact.email}
          {contact.name && <span className="hint"> {contact.email}</span>}
        </h1>
        <Link href={`/contacts/${contact.id}`}>Back to contact</Link>
      </div>
      <SubscriptionControls
        contactId={contact.id}
        status={data.status}
        subscribed={data.subscribed}
        hasComplaint={data.suppressions.some((s) => s.reason === "complaint")}
      />
      {contact.opt_in_timestamp && (
        <p className="hint">
          Last consent: <LocalTime value={contact.opt_in_timestamp} />
          {contact.opt_in_source && ` · source: ${contact.opt_in_source}`}
          {contact.opt_in_ip && ` · IP: ${contact.opt_in_ip}`}
        </p>
      )}
      <SuppressionsPanel contactId={contact.id} suppressions={data.suppressions} />
      <ConsentLedgerList contactId={contact.id} entries={data.ledger} />
    </div>
  );
}
