import type { Metadata } from "next";
import { connection } from "next/server";
import { documentLocale } from "@/lib/i18n/flows/page-locale";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "CRM", template: "%s · CRM" },
  description: "Contacts, consent, forms, payments and events for small teams.",
};

/**
 * Every page renders per request: its scripts carry the nonce of the response's CSP, which a page
 * prerendered at build time cannot know (decision record "A strict Content-Security-Policy:
 * scripts by nonce"). `<html lang>` is a recipient page's language, English elsewhere
 * (docs/decisions.md, "Recipient languages").
 */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  await connection();
  return (
    <html lang={await documentLocale()}>
      <body>{children}</body>
    </html>
  );
}
