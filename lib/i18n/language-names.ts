/**
 * The shipped languages (lib/i18n/locales.ts, LOCALES) as the dashboard names them, for the composer's and
 * the campaign builder's "Other languages". Kept free of imports, so client components can read it.
 */
export const LANGUAGE_NAMES = [
  { code: "en", name: "English" },
  { code: "es", name: "Spanish" },
  { code: "fr", name: "French" },
  { code: "de", name: "German" },
] as const;
