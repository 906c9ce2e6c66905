import { chooseLocale, type Locale } from "@/lib/i18n/locales";
import { translator, type Translator } from "@/lib/i18n/translator";
import type { PortalSession } from "./portal-session";

export interface PortalLocaleSources {
  /** `?lang=` of the page (or the form's hidden `lang`) */
  lang?: string | null;
  acceptLanguage?: string | null;
  /** The contact's `contacts.locale`: the signed-in contact's (PortalSession), or the link's addressee's. */
  contactLocale?: string | null;
  /** The workspace's `default_locale`, read with its name. */
  workspaceDefault?: string | null;
}

/** The portal's language (DESIGN.md section 9): `?lang=`, the contact's, Accept-Language, the workspace's. */
export function portalLocale(sources: PortalLocaleSources): Locale {
  return chooseLocale(sources);
}

/** The portal's translator: its language and the contact's time zone (UTC until contacts keep one). */
export function portalTranslator(sources: PortalLocaleSources, timeZone = "UTC"): Translator {
  return translator(portalLocale(sources), timeZone);
}

/**
 * The translator of a signed-in contact's request: the request's `?lang=` and Accept-Language with
 * the session's contact and workspace languages (portal pages, acts and downloads alike).
 */
export function sessionTranslator(
  session: Pick<PortalSession, "contactLocale" | "workspaceDefault">,
  request: { lang?: string | null; acceptLanguage?: string | null },
): Translator {
  return portalTranslator({
    lang: request.lang,
    contactLocale: session.contactLocale,
    acceptLanguage: request.acceptLanguage,
    workspaceDefault: session.workspaceDefault,
  });
}
