import type { Metadata } from "next";
import { RecipientPage } from "@/components/ui/recipient-page";

export const metadata: Metadata = { title: "Details confirmed", robots: { index: false } };

/** Where a confirmed form submission lands when its form has no success URL (spec 4.3). */
export default function VerifiedPage() {
  return (
    <RecipientPage title="Thank you, your details are confirmed">
      <p>Your form submission has been applied. You can close this page.</p>
    </RecipientPage>
  );
}
