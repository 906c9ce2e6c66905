import type { Metadata } from "next";
import { RecipientPage } from "@/components/ui/recipient-page";
import { pageTranslator } from "@/lib/i18n/flows/page-locale";

type Props = { searchParams: Promise<{ lang?: string | string[] }> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const t = await pageTranslator(null, null, (await searchParams).lang);
  return { title: t.t("subscribe.confirmed.metaTitle"), robots: { index: false } };
}

/** Spec 4.6 step 2's landing page, in the recipient's language (docs/decisions.md, "Recipient languages"). */
export default async function SubscribeConfirmedPage({ searchParams }: Props) {
  const t = await pageTranslator(null, null, (await searchParams).lang);
  return (
    <RecipientPage title={t.t("subscribe.confirmed.title")}>
      <p role="status">{t.t("subscribe.confirmed.body")}</p>
    </RecipientPage>
  );
}
