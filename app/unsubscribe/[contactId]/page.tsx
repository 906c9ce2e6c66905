import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { RecipientPage } from "@/components/ui/recipient-page";
import { withService } from "@/lib/db/doors";
import { unsubscribeContact } from "@/lib/consent/unsubscribe-contact";
import { clientIp } from "@/lib/http/client-ip";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Unsubscribe", robots: { index: false } };

/**
 * Spec 4.7: opening the link unsubscribes (is_subscribed false, unsubscribed_at now, an
 * 'unsubscribe' suppression). The RFC 8058 one-click POST to this same URL is rewritten by
 * proxy.ts to /api/unsubscribe/{contact_id}, since a page cannot take a POST.
 */
export default async function UnsubscribePage({ params }: { params: Promise<{ contactId: string }> }) {
  const { contactId } = await params;
  const ip = clientIp(await headers());
  const result = await withService((db) =>
    unsubscribeContact(db, { contactId, flow: "unsubscribe_link", ip }),
  );
  if ("error" in result)
    return (
      <RecipientPage title="Link not valid">
        <p>This unsubscribe link is not valid. It may have been mistyped, or the contact no longer exists.</p>
        <p className="hint">
          If you keep receiving email you did not ask for, reply to it and ask to be removed.
        </p>
      </RecipientPage>
    );
  return (
    <RecipientPage title="You are unsubscribed">
      <p role="status">
        You will no longer receive marketing email from <strong>{result.data.workspaceName}</strong>. You may
        still receive messages about things you asked for, such as receipts or event tickets.
      </p>
      <p>
        Unsubscribed by mistake? <Link href={`/subscribe/${result.data.contactId}`}>Subscribe again</Link>
      </p>
    </RecipientPage>
  );
}
