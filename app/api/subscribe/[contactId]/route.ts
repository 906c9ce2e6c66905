import { z } from "zod";
import { publicRoute } from "@/lib/adapters/public-route";
import { appUrl } from "@/lib/config";
import { withService } from "@/lib/db/doors";
import { resubscribeContact } from "@/lib/consent/resubscribe-contact";
import { clientIp } from "@/lib/http/client-ip";
import { recipientLocale, withLang } from "@/lib/i18n/recipient-locale";

/**
 * Spec 4.6: public re-subscribe. Redirects to /subscribe/confirmed, or to /subscribe/error with a
 * reason code from a fixed set (the page owns the text), so nothing the caller sends is echoed.
 * A malformed id is the same not_found redirect (loadConsentState checks it without a query), and
 * so is a manual block without the link's signature (`?sig=`, docs/decisions.md "Signed recipient links").
 * The page is told the recipient's language as `lang=` when it is not English (docs/decisions.md,
 * "Recipient languages": `?lang=`, the contact's locale, `Accept-Language`, the workspace's default).
 */
export const GET = publicRoute(
  { name: "re-subscribe", params: z.object({ contactId: z.string() }) },
  async (request, { contactId }) => {
    const query = new URL(request.url).searchParams;
    const signature = query.get("sig");
    const [result, locale] = await withService(async (db) => [
      await resubscribeContact(db, { contactId, ip: clientIp(request.headers), signature }),
      await recipientLocale(db, {
        contactId,
        lang: query.get("lang"),
        acceptLanguage: request.headers.get("accept-language"),
      }),
    ]);
    const target = withLang(
      "error" in result ? `/subscribe/error?reason=${result.reason}` : "/subscribe/confirmed",
      locale,
    );
    return Response.redirect(`${appUrl()}${target}`, 303);
  },
);
