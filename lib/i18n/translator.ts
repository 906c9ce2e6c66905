import { createIntl, createIntlCache, type IntlShape } from "@formatjs/intl";
import type { PrimitiveType } from "intl-messageformat";
import de from "@/messages/de.json";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import fr from "@/messages/fr.json";
import { log } from "@/lib/observability/log";
import { SOURCE_LOCALE, type Locale } from "./locales";

/**
 * Messages for recipients in ICU MessageFormat through FormatJS (`@formatjs/intl`: the same library in
 * server components, emails and API answers, with no framework routing; docs/decisions.md, "Recipient
 * languages"). The catalogues are JSON files in messages/ a translator edits; keys are dotted paths
 * (`common.poweredBy`). A key missing in a catalogue falls back to English and is logged, never shown raw
 * (tests/unit/i18n-catalogues.test.ts keeps the catalogues whole).
 */
type Catalogue = { [key: string]: string | Catalogue };

const CATALOGUES: Record<Locale, Catalogue> = { en, es, fr, de };

/** A catalogue's messages by dotted key. */
export function flattenCatalogue(catalogue: Catalogue, prefix = ""): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") flat[path] = value;
    else Object.assign(flat, flattenCatalogue(value, path));
  }
  return flat;
}

export const MESSAGES: Record<Locale, Record<string, string>> = {
  en: flattenCatalogue(CATALOGUES.en),
  es: flattenCatalogue(CATALOGUES.es),
  fr: flattenCatalogue(CATALOGUES.fr),
  de: flattenCatalogue(CATALOGUES.de),
};

/** A message key of the English catalogue, the source every other one follows. */
export type MessageKey = keyof typeof MESSAGES.en & string;
export type MessageValues = Record<string, PrimitiveType | Date>;

export interface Translator {
  locale: Locale;
  timeZone: string;
  /** the message in this language (English when it is missing here) with its placeholders filled */
  t(key: MessageKey, values?: MessageValues): string;
  /** a date and time in this language and the recipient's time zone */
  dateTime(when: Date | string, style?: "full" | "long" | "medium" | "short"): string;
  /** an amount in minor units (cents) of a currency, in this language */
  money(cents: number, currency: string): string;
  intl: IntlShape<string>;
}

const cache = createIntlCache();
const translators = new Map<string, Translator>();

/** The translator of a language and time zone (kept per pair: FormatJS caches its formatters inside). */
export function translator(locale: Locale, timeZone = "UTC"): Translator {
  const cacheKey = `${locale}|${timeZone}`;
  const kept = translators.get(cacheKey);
  if (kept) return kept;
  const intl = createIntl(
    {
      locale,
      timeZone,
      defaultLocale: SOURCE_LOCALE,
      messages: { ...MESSAGES.en, ...MESSAGES[locale] },
      onError: (error) => log.warn({ err: error, locale }, "i18n message error"),
    },
    cache,
  );
  const made: Translator = {
    locale,
    timeZone,
    intl,
    t: (key, values) => intl.formatMessage({ id: key }, values) as string,
    dateTime: (when, style = "long") =>
      intl.formatDate(new Date(when), { dateStyle: style, timeStyle: "short", timeZone }),
    money: (cents, currency) =>
      intl.formatNumber(cents / 100, { style: "currency", currency: currency.toUpperCase() }),
  };
  translators.set(cacheKey, made);
  return made;
}
