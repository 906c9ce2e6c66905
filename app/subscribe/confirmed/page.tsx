import type { Metadata } from "next";
import { RecipientCard } from "@/components/recipient/recipient-card";

export const metadata: Metadata = { title: "Subscribed", robots: { index: false } };

export default function SubscribeConfirmedPage() {
  return (
    <RecipientCard title="You are subscribed">
      <p role="status">
        Thank you: you will receive our emails again. Every email has a link to unsubscribe.
      </p>
    </RecipientCard>
  );
}
