import type { Metadata } from "next";
import { RecipientPage } from "@/components/ui/recipient-page";
import { isResubscribeError } from "@/lib/consent/resubscribe-contact";
import { pageTranslator } from "@/lib/i18n/flows/page-locale";

type Props = { searchParams: Promise<{ reason?: string; lang?: string | string[] }> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const t = await pageTranslator(null, null, (await searchParams).lang);
  return { title: t.t("subscribe.error.metaTitle"), robots: { index: false } };
}

/**
 * Spec 4.6 step 1: the contextual message comes from a fixed set of codes, never from the URL's text;
 * in the recipient's language (docs/decisions.md, "Recipient languages").
 */
export default async function SubscribeErrorPage({ searchParams }: Props) {
  const { reason, lang } = await searchParams;
  const t = await pageTranslator(null, null, lang);
  const message = isResubscribeError(reason)
    ? t.t(`subscribe.reasons.${reason}`)
    : t.t("subscribe.error.generic");
  return (
    <RecipientPage title={t.t("subscribe.error.title")}>
      <p role="alert">{message}</p>
    </RecipientPage>
  );
}
