import type { Metadata } from "next";
import { RecipientPage } from "@/components/ui/recipient-page";
import { withService } from "@/lib/db/doors";
import { getSubscribeTarget } from "@/lib/consent/get-subscribe-target";
import { RESUBSCRIBE_ERROR_MESSAGES } from "@/lib/consent/resubscribe-contact";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Subscribe", robots: { index: false } };

/** Asks before re-subscribing; the button is a plain GET to spec 4.6's endpoint (works without JS). */
export default async function SubscribePage({
  params,
  searchParams,
}: {
  params: Promise<{ contactId: string }>;
  searchParams: Promise<{ sig?: string | string[] }>;
}) {
  const { contactId } = await params;
  const { sig } = await searchParams;
  const target = await withService((db) => getSubscribeTarget(db, contactId, sig));
  if (!target)
    return (
      <RecipientPage title="Link not valid">
        <p>{RESUBSCRIBE_ERROR_MESSAGES.not_found}</p>
      </RecipientPage>
    );
  if (target.blocked)
    return (
      <RecipientPage title="We cannot subscribe this address">
        <p role="alert">{RESUBSCRIBE_ERROR_MESSAGES[target.blocked]}</p>
      </RecipientPage>
    );
  if (target.subscribed)
    return (
      <RecipientPage title="You are subscribed">
        <p>
          {target.maskedEmail} already receives email from <strong>{target.workspaceName}</strong>.
        </p>
      </RecipientPage>
    );
  return (
    <RecipientPage title="Subscribe to our emails?">
      <p>
        Do you want <strong>{target.maskedEmail}</strong> to receive news and offers by email from{" "}
        <strong>{target.workspaceName}</strong>? You can unsubscribe at any time with the link in every email.
      </p>
      <form method="get" action={`/api/subscribe/${contactId}`}>
        {typeof sig === "string" && <input type="hidden" name="sig" value={sig} />}
        <button type="submit">Yes, subscribe me</button>
      </form>
    </RecipientPage>
  );
}
