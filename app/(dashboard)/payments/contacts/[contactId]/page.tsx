import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { getContactSummary } from "@/lib/payments/get-contact-summary";
import { TransactionsFeed } from "@/components/payments/transactions-feed";
import { notFoundUnlessUuid } from "@/lib/ids/not-found-unless-uuid";

export const metadata: Metadata = { title: "Contact transactions" };

/** One contact's transactions feed (the contact page shows the same feed). */
export default async function ContactTransactionsPage({
  params,
}: {
  params: Promise<{ contactId: string }>;
}) {
  const { contactId } = await params;
  notFoundUnlessUuid(contactId);
  const ctx = await requireMember();
  const contact = await withUser(ctx.claims, (db) =>
    getContactSummary(db, { workspaceId: ctx.workspace.workspaceId, contactId }),
  );
  if (!contact) notFound();
  return (
    <>
      <p>
        <Link href="/payments">← Payments</Link>
      </p>
      <h1>{contact.name || contact.email}</h1>
      {contact.name && <p className="hint">{contact.email}</p>}
      <TransactionsFeed contactId={contact.id} />
    </>
  );
}
