import { chooseLocale, type Locale } from "@/lib/i18n/locales";
import { translator, type Translator } from "@/lib/i18n/translator";

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
