import { chooseLocale, type Locale } from "@/lib/i18n/locales";
import { translator, type Translator } from "@/lib/i18n/translator";

export interface PortalLocaleSources {
  /** `?lang=` of the page (or the form's hidden `lang`) */
  lang?: string | null;
  acceptLanguage?: string | null;
  /**
   * The signed-in contact's `contacts.locale`. THE ONE PLACE TO ADD IT: the column is not on main
   * when the portal is written (another change adds it), so every caller passes null until then;
   * when it exists, findPortalSession reads it and its callers hand it on here.
   */
  contactLocale?: string | null;
  /**
   * The workspace's default language: likewise not a column yet; null until it is added, then read
   * with the workspace's name.
   */
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
