import type { Metadata } from "next";
import { RecipientPage } from "@/components/ui/recipient-page";

export const metadata: Metadata = { title: "Subscribed", robots: { index: false } };

export default function SubscribeConfirmedPage() {
  return (
    <RecipientPage title="You are subscribed">
      <p role="status">
        Thank you: you will receive our emails again. Every email has a link to unsubscribe.
      </p>
    </RecipientPage>
  );
}
