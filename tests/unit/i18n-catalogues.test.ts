import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { acceptedLanguages, chooseLocale, LOCALES } from "@/lib/i18n/locales";
import { MESSAGES, translator } from "@/lib/i18n/translator";

/** The placeholders a message uses, with their kind (`count:plural`, `when:date`, `name:argument`). */
function placeholders(elements: MessageFormatElement[], found = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    if (element.type === TYPE.tag) {
      found.add(`<${element.value}>`);
      placeholders(element.children, found);
      continue;
    }
    found.add(`${element.value}:${TYPE[element.type]}`);
    if (element.type === TYPE.plural || element.type === TYPE.select)
      for (const option of Object.values(element.options)) placeholders(option.value, found);
  }
  return found;
}

describe("the message catalogues a translator edits (DESIGN.md section 9, languages)", () => {
  const source = MESSAGES.en;

  it.each(LOCALES.filter((l) => l !== "en"))(
    "%s has every key of the English source and no other",
    (locale) => {
      const keys = Object.keys(MESSAGES[locale]).sort();
      expect(keys.filter((k) => !(k in source))).toEqual([]);
      expect(Object.keys(source).filter((k) => !(k in MESSAGES[locale]))).toEqual([]);
    },
  );

  /**
   * A message left in English is a key someone copied without translating; the few words that are
   * the same in a language are named here, so every other one must differ from the English.
   */
  const SAME_AS_ENGLISH: Record<string, string[]> = {
    de: ["rsvp.website", "fields.name"], // "Website", "Name" are German too
    fr: ["portal.purchases.date", "portal.memberships.active"], // "Date", "Active" are French too
  };

  it.each(LOCALES.filter((l) => l !== "en"))(
    "%s translates every message (none left in English)",
    (locale) => {
      const untranslated = Object.keys(source).filter(
        (key) => MESSAGES[locale][key] === source[key] && !(SAME_AS_ENGLISH[locale] ?? []).includes(key),
      );
      expect(untranslated).toEqual([]);
    },
  );

  it.each(LOCALES)("every message of %s parses and uses the English message's placeholders", (locale) => {
    for (const [key, message] of Object.entries(MESSAGES[locale])) {
      const mine = [...placeholders(parse(message))].sort();
      const english = [...placeholders(parse(source[key] ?? ""))].sort();
      expect({ key, placeholders: mine }).toEqual({ key, placeholders: english });
    }
  });

  it("a message is formatted in its language, never shown as its key", () => {
    expect(translator("de").t("common.poweredBy", { workspace: "Kino" })).toBe("Gesendet von Kino");
    const when = new Date("2026-12-24T18:30:00Z");
    expect(translator("fr", "Europe/Paris").t("common.dateTime", { when })).toMatch(
      /24 décembre 2026 à 19:30/,
    );
    expect(translator("es").money(1999, "eur")).toMatch(/19,99/);
  });
});

describe("the recipient's language: ?lang=, the contact's locale, Accept-Language, the workspace's default", () => {
  it("takes each source in that order", () => {
    const all = { lang: "fr", contactLocale: "de", acceptLanguage: "es", workspaceDefault: "en" };
    expect(chooseLocale(all)).toBe("fr");
    expect(chooseLocale({ ...all, lang: null })).toBe("de");
    expect(chooseLocale({ ...all, lang: null, contactLocale: null })).toBe("es");
    expect(chooseLocale({ workspaceDefault: "de" })).toBe("de");
    expect(chooseLocale({})).toBe("en");
  });

  it("matches regional tags and passes over languages not shipped, without an error", () => {
    expect(chooseLocale({ lang: "de-AT" })).toBe("de");
    expect(chooseLocale({ lang: "xx", acceptLanguage: "it;q=1, fr-CA;q=0.8" })).toBe("fr");
    expect(chooseLocale({ lang: "<script>", contactLocale: "ja" })).toBe("en");
  });

  it("reads Accept-Language by q-value", () => {
    expect(acceptedLanguages("en;q=0.5, de-DE, fr;q=0.9, *;q=0.1")).toEqual(["de-DE", "fr", "en"]);
    expect(chooseLocale({ acceptLanguage: "en;q=0.5, de-DE, fr;q=0.9" })).toBe("de");
    expect(acceptedLanguages("")).toEqual([]);
  });
});
