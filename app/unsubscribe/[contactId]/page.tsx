import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { PreferenceCentreForm } from "@/components/consent/preference-centre";
import { RecipientPage } from "@/components/ui/recipient-page";
import { withService } from "@/lib/db/doors";
import { getPreferenceCentre, unsubscribeByLink } from "@/lib/consent/topic-consent";
import { clientIp } from "@/lib/http/client-ip";
import { savePreferencesAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Unsubscribe", robots: { index: false } };

/**
 * Spec 4.7: opening the link unsubscribes (is_subscribed false, unsubscribed_at now, an
 * 'unsubscribe' suppression). The RFC 8058 one-click POST to this same URL is rewritten by
 * proxy.ts to /api/unsubscribe/{contact_id}, since a page cannot take a POST.
 *
 * A workspace with subscription topics (docs/decisions.md, "Subscription topics") gets a
 * preference centre below: the link of a broadcast sent to a topic (`?topic=`) leaves that
 * topic only; the person then ticks the topics they want, or leaves everything. Adding a topic
 * needs the link's signature (`?sig=`, docs/decisions.md "Signed recipient links"), which the page
 * hands on to the form; the unsubscribe itself does not (spec 4.7).
 */
export default async function UnsubscribePage({
  params,
  searchParams,
}: {
  params: Promise<{ contactId: string }>;
  searchParams: Promise<{ topic?: string | string[]; sig?: string | string[] }>;
}) {
  const { contactId } = await params;
  const { topic, sig } = await searchParams;
  const ip = clientIp(await headers());
  const result = await withService((db) =>
    unsubscribeByLink(db, { contactId, topicId: topic, ip, signature: sig }),
  );
  if ("error" in result)
    return (
      <RecipientPage title="Link not valid">
        <p>This unsubscribe link is not valid. It may have been mistyped, or the contact no longer exists.</p>
        <p className="hint">
          If you keep receiving email you did not ask for, reply to it and ask to be removed.
        </p>
      </RecipientPage>
    );
  const centre = await withService((db) => getPreferenceCentre(db, result.data.contactId));
  const left = result.data.topic;
  return (
    <RecipientPage title="You are unsubscribed">
      {left ? (
        <p role="status">
          You will no longer receive <strong>{left.name}</strong> email from{" "}
          <strong>{result.data.workspaceName}</strong>. Your other choices below are unchanged.
        </p>
      ) : (
        <p role="status">
          You will no longer receive marketing email from <strong>{result.data.workspaceName}</strong>. You
          may still receive messages about things you asked for, such as receipts or event tickets.
        </p>
      )}
      {centre && centre.topics.length > 0 ? (
        <section className="stack" aria-labelledby="preferences-heading">
          <h2 id="preferences-heading">Your email preferences</h2>
          <p className="hint">Choose what {centre.maskedEmail} receives.</p>
          <PreferenceCentreForm
            contactId={centre.contactId}
            topics={centre.topics}
            blocked={centre.blocked !== null}
            signature={result.data.signature}
            save={savePreferencesAction}
          />
        </section>
      ) : (
        <p>
          Unsubscribed by mistake?{" "}
          <Link
            href={`/subscribe/${result.data.contactId}${result.data.subscribeSignature ? `?sig=${result.data.subscribeSignature}` : ""}`}
          >
            Subscribe again
          </Link>
        </p>
      )}
    </RecipientPage>
  );
}
