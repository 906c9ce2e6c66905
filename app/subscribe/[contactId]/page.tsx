import type { Metadata } from "next";
import { RecipientPage } from "@/components/ui/recipient-page";
import { withService } from "@/lib/db/doors";
import { getSubscribeTarget } from "@/lib/consent/get-subscribe-target";
import { pageTranslator } from "@/lib/i18n/flows/page-locale";
import { firstParam } from "@/lib/i18n/recipient-locale";
import { rich } from "@/lib/i18n/rich";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ contactId: string }>;
  searchParams: Promise<{ sig?: string | string[]; lang?: string | string[] }>;
};

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const t = await pageTranslator("contact", (await params).contactId, (await searchParams).lang);
  return { title: t.t("subscribe.ask.metaTitle"), robots: { index: false } };
}

/**
 * Asks before re-subscribing; the button is a plain GET to spec 4.6's endpoint (works without JS),
 * which hands the page's `?lang=` on. In the contact's language (docs/decisions.md, "Recipient languages").
 */
export default async function SubscribePage({ params, searchParams }: Props) {
  const { contactId } = await params;
  const { sig, lang } = await searchParams;
  const t = await pageTranslator("contact", contactId, lang);
  const target = await withService((db) => getSubscribeTarget(db, contactId, sig));
  if (!target)
    return (
      <RecipientPage title={t.t("subscribe.ask.invalidTitle")}>
        <p>{t.t("subscribe.reasons.not_found")}</p>
      </RecipientPage>
    );
  if (target.blocked)
    return (
      <RecipientPage title={t.t("subscribe.ask.blockedTitle")}>
        <p role="alert">{t.t(`subscribe.reasons.${target.blocked}`)}</p>
      </RecipientPage>
    );
  const names = { email: target.maskedEmail, workspace: target.workspaceName };
  if (target.subscribed)
    return (
      <RecipientPage title={t.t("subscribe.ask.alreadyTitle")}>
        <p>{rich(t, "subscribe.ask.already", names)}</p>
      </RecipientPage>
    );
  const chosen = firstParam(lang);
  return (
    <RecipientPage title={t.t("subscribe.ask.title")}>
      <p>{rich(t, "subscribe.ask.question", names)}</p>
      <form method="get" action={`/api/subscribe/${contactId}`}>
        {typeof sig === "string" && <input type="hidden" name="sig" value={sig} />}
        {chosen && <input type="hidden" name="lang" value={chosen} />}
        <button type="submit">{t.t("subscribe.ask.button")}</button>
      </form>
    </RecipientPage>
  );
}
