import { match } from "@formatjs/intl-localematcher";

/**
 * The languages recipients see (DESIGN.md section 9, "Portal and languages"): the message catalogues in
 * messages/<locale>.json. English is the source: the spec's texts are its messages, and a key missing in
 * another catalogue falls back to it (docs/decisions.md, "Recipient languages").
 */
export const LOCALES = ["en", "es", "fr", "de"] as const;
export type Locale = (typeof LOCALES)[number];
export const SOURCE_LOCALE: Locale = "en";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * The tags of an `Accept-Language` header, by preference (q-values, then order); `*` and malformed
 * entries are left out.
 */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter(({ tag, quality }) => quality > 0 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag))
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map(({ tag }) => tag);
}

/** A well-formed BCP 47 tag (what `Intl` accepts); anything else is passed over. */
function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** The shipped locale that best serves the BCP 47 tags given in order of preference, or null. */
export function bestLocale(tags: readonly string[]): Locale | null {
  const valid = tags.filter(isLanguageTag);
  if (valid.length === 0) return null;
  const found = match(valid, LOCALES, "zxx", { algorithm: "best fit" }); // zxx: "no linguistic content", no match;
  return isLocale(found) ? found : null;
}

export interface LocaleSources {
  /** `?lang=` of the request */
  lang?: string | null;
  /** `contacts.locale` of the recipient, when known */
  contactLocale?: string | null;
  /** the request's `Accept-Language` header */
  acceptLanguage?: string | null;
  /** the workspace's default language */
  workspaceDefault?: string | null;
}

/**
 * The language of a recipient page or email: `?lang=`, then the contact's locale, then `Accept-Language`,
 * then the workspace's default, then English (DESIGN.md section 9). A source naming a language that is not
 * shipped passes to the next one, without an error.
 */
export function chooseLocale(sources: LocaleSources): Locale {
  for (const tag of [sources.lang, sources.contactLocale]) {
    const found = tag ? bestLocale([tag]) : null;
    if (found) return found;
  }
  const fromHeader = bestLocale(acceptedLanguages(sources.acceptLanguage));
  if (fromHeader) return fromHeader;
  const fromWorkspace = sources.workspaceDefault ? bestLocale([sources.workspaceDefault]) : null;
  return fromWorkspace ?? SOURCE_LOCALE;
}

/**
 * The shipped language a request itself names (`?lang=`, else `Accept-Language`), or null when it
 * names none: what a recipient chose on the page, without the stored sources.
 */
export function requestLocale(
  sources: Pick<LocaleSources, "lang" | "acceptLanguage"> | undefined,
): Locale | null {
  const fromLang = sources?.lang ? bestLocale([sources.lang]) : null;
  return fromLang ?? bestLocale(acceptedLanguages(sources?.acceptLanguage));
}
