import type { Metadata } from "next";
import { RecipientPage } from "@/components/ui/recipient-page";
import { isResubscribeError, RESUBSCRIBE_ERROR_MESSAGES } from "@/lib/consent/resubscribe-contact";

export const metadata: Metadata = { title: "Could not subscribe", robots: { index: false } };

/** Spec 4.6 step 1: the contextual message comes from a fixed set of codes, never from the URL's text. */
export default async function SubscribeErrorPage({
  searchParams,
}: {
  searchParams: Promise<{ reason?: string }>;
}) {
  const { reason } = await searchParams;
  const message = isResubscribeError(reason)
    ? RESUBSCRIBE_ERROR_MESSAGES[reason]
    : "Something went wrong and we could not subscribe you. Please try the link again later.";
  return (
    <RecipientPage title="We could not subscribe you">
      <p role="alert">{message}</p>
    </RecipientPage>
  );
}
