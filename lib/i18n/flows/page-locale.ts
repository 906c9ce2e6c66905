import { headers } from "next/headers";
import { cache } from "react";
import { withService } from "@/lib/db/doors";
import { recipientLocale } from "../recipient-locale";
import { translator, type Translator } from "../translator";
import { SOURCE_LOCALE, type Locale } from "../locales";
import {
  matchRecipientPath,
  RECIPIENT_LANG_HEADER,
  RECIPIENT_PATH_HEADER,
  type PageScope,
} from "../recipient-paths";

/**
 * The language of one recipient page, once per request: the page and the root layout (its
 * `<html lang>`) ask alike, and React's request cache answers the second from the first.
 */
export const pageLocale = cache(
  async (scope: PageScope, id: string | null, lang: string | null): Promise<Locale> => {
    const acceptLanguage = (await headers()).get("accept-language");
    return withService((db) =>
      recipientLocale(db, {
        contactId: scope === "contact" ? id : null,
        eventId: scope === "event" ? id : null,
        lang,
        acceptLanguage,
      }),
    );
  },
);

/** The translator of a recipient page (its time zone: UTC unless the page formats in another). */
export async function pageTranslator(
  scope: PageScope,
  id: string | null,
  lang: string | string[] | undefined,
): Promise<Translator> {
  const one = Array.isArray(lang) ? lang[0] : lang;
  return translator(await pageLocale(scope, id, one || null));
}

/** `<html lang>` of the request being rendered: the recipient page's language, else English. */
export async function documentLocale(): Promise<Locale> {
  const h = await headers();
  const path = h.get(RECIPIENT_PATH_HEADER);
  const page = path ? matchRecipientPath(path) : null;
  if (!page) return SOURCE_LOCALE;
  return pageLocale(page.scope, page.id, h.get(RECIPIENT_LANG_HEADER) || null);
}
