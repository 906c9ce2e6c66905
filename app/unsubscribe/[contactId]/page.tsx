import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { PreferenceCentreForm } from "@/components/consent/preference-centre";
import { RecipientPage } from "@/components/ui/recipient-page";
import { withService } from "@/lib/db/doors";
import { getPreferenceCentre, unsubscribeByLink } from "@/lib/consent/topic-consent";
import { clientIp } from "@/lib/http/client-ip";
import { pageTranslator } from "@/lib/i18n/flows/page-locale";
import { rich } from "@/lib/i18n/rich";
import { savePreferencesAction } from "./actions";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ contactId: string }>;
  searchParams: Promise<{ topic?: string | string[]; sig?: string | string[]; lang?: string | string[] }>;
};

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const t = await pageTranslator("contact", (await params).contactId, (await searchParams).lang);
  return { title: t.t("unsubscribe.metaTitle"), robots: { index: false } };
}

/**
 * Spec 4.7: opening the link unsubscribes (is_subscribed false, unsubscribed_at now, an
 * 'unsubscribe' suppression). The RFC 8058 one-click POST to this same URL is rewritten by
 * proxy.ts to /api/unsubscribe/{contact_id}, since a page cannot take a POST.
 *
 * A workspace with subscription topics (docs/decisions.md, "Subscription topics") gets a
 * preference centre below: the link of a broadcast sent to a topic (`?topic=`) leaves that
 * topic only; the person then ticks the topics they want, or leaves everything. Adding a topic
 * needs the link's signature (`?sig=`, docs/decisions.md "Signed recipient links"), which the page
 * hands on to the form; the unsubscribe itself does not (spec 4.7). The page is in the contact's
 * language (docs/decisions.md, "Recipient languages"); the spec's texts are its English messages.
 */
export default async function UnsubscribePage({ params, searchParams }: Props) {
  const { contactId } = await params;
  const { topic, sig, lang } = await searchParams;
  const t = await pageTranslator("contact", contactId, lang);
  const ip = clientIp(await headers());
  const result = await withService((db) =>
    unsubscribeByLink(db, { contactId, topicId: topic, ip, signature: sig }),
  );
  if ("error" in result)
    return (
      <RecipientPage title={t.t("unsubscribe.invalidTitle")}>
        <p>{t.t("unsubscribe.invalidBody")}</p>
        <p className="hint">{t.t("unsubscribe.invalidHint")}</p>
      </RecipientPage>
    );
  const centre = await withService((db) => getPreferenceCentre(db, result.data.contactId));
  const left = result.data.topic;
  return (
    <RecipientPage title={t.t("unsubscribe.title")}>
      {left ? (
        <p role="status">
          {rich(t, "unsubscribe.leftTopic", { topic: left.name, workspace: result.data.workspaceName })}
        </p>
      ) : (
        <p role="status">{rich(t, "unsubscribe.leftAll", { workspace: result.data.workspaceName })}</p>
      )}
      {centre && centre.topics.length > 0 ? (
        <section className="stack" aria-labelledby="preferences-heading">
          <h2 id="preferences-heading">{t.t("unsubscribe.preferencesHeading")}</h2>
          <p className="hint">{t.t("unsubscribe.choose", { email: centre.maskedEmail })}</p>
          <PreferenceCentreForm
            contactId={centre.contactId}
            topics={centre.topics}
            blocked={centre.blocked !== null}
            signature={result.data.signature}
            save={savePreferencesAction}
            lang={t.locale}
            labels={{
              legend: t.t("preferences.legend"),
              blocked: t.t("preferences.blocked"),
              openLink: t.t("preferences.openLink"),
              save: t.t("preferences.save"),
              everything: t.t("preferences.everything"),
              saving: t.t("common.saving"),
            }}
          />
        </section>
      ) : (
        <p>
          {t.t("unsubscribe.mistake")}{" "}
          <Link href={subscribeAgain(result.data.contactId, result.data.subscribeSignature, lang)}>
            {t.t("unsubscribe.subscribeAgain")}
          </Link>
        </p>
      )}
    </RecipientPage>
  );
}

/** The re-subscribe page's link, with the link's signature and the page's `?lang=` when given. */
function subscribeAgain(contactId: string, signature: string | null, lang: string | string[] | undefined) {
  const query = new URLSearchParams();
  if (signature) query.set("sig", signature);
  const chosen = Array.isArray(lang) ? lang[0] : lang;
  if (chosen) query.set("lang", chosen);
  const text = query.toString();
  return `/subscribe/${contactId}${text ? `?${text}` : ""}`;
}
