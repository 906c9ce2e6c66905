import type { Metadata } from "next";
import { RecipientPage } from "@/components/ui/recipient-page";
import { pageTranslator } from "@/lib/i18n/flows/page-locale";

type Props = { searchParams: Promise<{ lang?: string | string[] }> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const t = await pageTranslator(null, null, (await searchParams).lang);
  return { title: t.t("verified.metaTitle"), robots: { index: false } };
}

/**
 * Where a confirmed form submission lands when its form has no success URL (spec 4.3), in the
 * recipient's language (the verify link hands it on as `?lang=`; docs/decisions.md, "Recipient languages").
 */
export default async function VerifiedPage({ searchParams }: Props) {
  const t = await pageTranslator(null, null, (await searchParams).lang);
  return (
    <RecipientPage title={t.t("verified.title")}>
      <p>{t.t("verified.body")}</p>
    </RecipientPage>
  );
}
